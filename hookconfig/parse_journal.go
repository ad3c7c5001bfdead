package hookconfig

import (
	"fmt"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"
)

// JournalConfig is the config's journal: block. The dispatcher only
// carries it: the verbs that record (dispatch, hook, serve) hand it to
// package journal. Its zero value is the default: on, in
// $HERMES_HOME/hook-journal.jsonl, payload digests only, rotation at the
// journal package's default size.
type JournalConfig struct {
	// Path is the live journal file ("" for the default), ~ expanded and
	// made absolute against the config's directory.
	Path string
	// Off is enabled: false; OffBy how the config said so, as written
	// ("journal: false", "journal: {enabled: no}"), for the messages
	// about it.
	Off   bool
	OffBy string
	// IncludePayload keeps each dispatch's fields whole instead of their
	// SHA-256 only: tool arguments can hold secrets, so it is opt-in.
	IncludePayload bool
	// MaxBytes is the size at which the live file is rotated (0: the
	// default).
	MaxBytes int64
}

// setOff turns the journal off (or on) as the config's words said: OffBy
// is set only while it is off, so that a journal left on by its words
// (enabled: true) is still the zero JournalConfig a layer that may not
// set it compares with.
func (j *JournalConfig) setOff(off bool, said string) {
	j.Off, j.OffBy = off, ""
	if off {
		j.OffBy = said
	}
}

// parseJournal reads journal: {path, enabled, include_payload, max_bytes}.
// A bad value is a warning and that key's default: the journal is a record,
// never a reason to refuse a config.
func (cfg *Config) parseJournal(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if b, ok := pyyaml.Bool(n); ok {
		// journal: false is the short way to turn it off.
		cfg.Journal.setOff(!b, "journal: "+n.Value)
		return
	}
	if n.Kind != yaml.MappingNode {
		cfg.warn("journal", "must be a mapping (path, enabled, include_payload, max_bytes); got "+pyyaml.Type(n)+"; using the defaults")
		return
	}
	cfg.keysOnce(n, "journal", nil)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i].Value, n.Content[i+1]
		switch key {
		case "path":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				cfg.warn("journal.path", "must be a file path; got "+pyyaml.Repr(v)+"; using the default")
				continue
			}
			cfg.Journal.Path = v.Value
		case "enabled":
			b, ok := pyyaml.Bool(v)
			if !ok {
				cfg.warn("journal.enabled", "must be true or false (got "+pyyaml.Repr(v)+"); keeping the journal on")
				continue
			}
			cfg.Journal.setOff(!b, "journal: {enabled: "+v.Value+"}")
		case "include_payload":
			b, ok := pyyaml.Bool(v)
			if !ok {
				cfg.warn("journal.include_payload", "must be true or false (got "+pyyaml.Repr(v)+"); keeping digests only")
				continue
			}
			cfg.Journal.IncludePayload = b
		case "max_bytes":
			b, ok := pyyaml.Int(v)
			if !ok || v.Tag == "!!bool" || b < 4096 {
				cfg.warn("journal.max_bytes", fmt.Sprintf("must be a whole number of bytes, at least 4096 (got %s); using the default", pyyaml.Repr(v)))
				continue
			}
			cfg.Journal.MaxBytes = int64(b)
		default:
			cfg.warn("journal."+key, "is not a journal key (path, enabled, include_payload, max_bytes); ignored")
		}
	}
}

// JournalOf reads the journal: block of the config file at path alone (its
// rule files and agents' files are not read): Path resolved as Load
// resolves it. replay reads your own config's for a candidate config that
// names no journal of its own.
func JournalOf(path string) (JournalConfig, error) {
	data, err := ReadConfigFile(path)
	if err != nil {
		return JournalConfig{}, err
	}
	cfg, err := ParseConfig(data, path)
	if err != nil {
		return JournalConfig{}, err
	}
	j := cfg.Journal
	if j.Path != "" {
		j.Path = resolvePath(j.Path, filepath.Dir(path))
	}
	return j, nil
}
