package hookconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"
)

// Rule files: `rules: [path/to/team.yaml]` at a config's top level
// includes the rule entries of shared files. A rule file is written as a
// config (a hooks: block, and rules: of its own) whose entries are all
// rules (agent-hooks/rules/*.yaml). Each path is relative to the file that
// names it. A file that cannot be read, an include cycle, or an entry that
// is not a rule stops the including file from loading, naming both: a
// guard must not go missing with a warning. A repository's rule files must
// lie inside the repository (after every symbolic link), so what its rules
// are is what its tree holds.

// MaxRuleFiles bounds the rule files one config includes, nested
// includes too (each file is read once).
const MaxRuleFiles = 64

// ruleInclude is one path of rules:, with its line.
type ruleInclude struct {
	name string
	line int
}

// parseRuleIncludes reads rules: a path or a list of paths.
func (cfg *Config) parseRuleIncludes(n *yaml.Node) {
	bad := func(at *yaml.Node) {
		got := pyyaml.Type(at)
		if at.Kind == yaml.ScalarNode && at.Tag == "!!str" {
			// "got str" of a string read as a refusal of strings.
			got = "an empty path"
		}
		if cfg.loadErr == nil {
			cfg.loadErr = &ConfigError{Path: cfg.Path, Line: at.Line, Column: at.Column,
				Err: fmt.Errorf("rules must be a list of rule file paths, e.g. rules: [rules/team.yaml]; got %s", got)}
		}
	}
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.TrimSpace(n.Value) != "":
		cfg.ruleFiles = append(cfg.ruleFiles, ruleInclude{strings.TrimSpace(n.Value), n.Line})
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || strings.TrimSpace(item.Value) == "" {
				bad(item)
				return
			}
			if i == MaxRuleFiles && cfg.loadErr == nil {
				// More names can only be repeats, each checked on every
				// load: a hooks file could list one a hundred thousand
				// times.
				cfg.loadErr = &ConfigError{Path: cfg.Path, Line: item.Line, Column: item.Column,
					Err: fmt.Errorf("rules names more than %d rule files", MaxRuleFiles)}
				return
			}
			cfg.ruleFiles = append(cfg.ruleFiles, ruleInclude{strings.TrimSpace(item.Value), item.Line})
		}
	default:
		bad(n)
	}
}

// ruleReader reads the rule files of one config: the user's (root "":
// anywhere, up to MaxConfigBytes each) or a repository's (confined to
// root, up to MaxProjectFileBytes and MaxProjectEntries together).
type ruleReader struct {
	root string
	// managed: the files are the managed layer's, held to its ownership
	// rule (readManaged): an include a user could write would let them
	// decide what the administrator's rules say.
	managed bool
	read    []string // every file read so far, in order
	// unread are the files of read that could not be read (listed
	// there so that serve reloads once one is put back).
	unread []string
	// builtins are the built-in rule files included so far (their
	// Source, builtin:NAME): no file to watch, but counted with read
	// against MaxRuleFiles.
	builtins []string
	// total is the bytes of a repository's (or bundle's) hooks file and
	// the rule files read so far: together they get the one
	// MaxProjectFileBytes its hooks file alone may hold, or 64 of them
	// would make every dispatch parse 64 times what that file may.
	total projectBytes
	// entries counts the hook definitions of a repository's (or
	// bundle's) hooks file and the rule files read so far: together they
	// get the one MaxProjectEntries its hooks file gets, for the same
	// reason.
	entries int
}

// includeRules merges the rule entries of cfg's rules: files (and theirs)
// into cfg, after its own entries. chain is the files that led here, for
// cycles.
func (rr *ruleReader) includeRules(cfg *Config, chain []string) error {
	for _, inc := range cfg.ruleFiles {
		if IsBuiltin(inc.name) || cfg.builtin {
			// No path: nothing below reads, stats or resolves it.
			if err := rr.includeBuiltin(cfg, inc, chain); err != nil {
				return err
			}
			continue
		}
		p := resolvePath(inc.name, filepath.Dir(cfg.Path))
		at := func(err error) error { return includeError(cfg.Path, inc, p, err) }
		if rr.root != "" {
			// Refused by its text before the stats below compare it
			// with the files read: a stat of a path outside the
			// repository acts too (an automounted /net/host, a \\host
			// share that is handed the user's Windows credentials).
			if err := fsutil.Within(p, rr.root); err != nil {
				if fsutil.InTree(p, rr.root) {
					// A link of the repository's that leads out:
					// listed, so that serve reloads once it is
					// pointed back inside (a path outside by its
					// text changes only with the file naming it).
					rr.read = append(rr.read, p)
					rr.unread = append(rr.unread, p)
				}
				return at(err)
			}
		}
		for i, c := range chain {
			if c == p || sameFile(c, p) {
				return at(fmt.Errorf("includes itself (%s)", strings.Join(append(chain[i:], p), " → ")))
			}
		}
		if rr.seen(p) {
			continue // included already (by another file): once is enough
		}
		if len(rr.read)+len(rr.builtins) >= MaxRuleFiles {
			return at(fmt.Errorf("more than %d rule files are included", MaxRuleFiles))
		}
		rr.read = append(rr.read, p)
		var data []byte
		var err error
		limit := 0
		switch {
		case rr.managed:
			data, err = readManaged(p)
		case rr.root == "":
			data, err = ReadConfigFile(p)
		default:
			var over bool
			if data, over, err = rr.total.read(p, rr.root); over {
				err = fmt.Errorf("a repository's or bundle's hooks file and the rule files it includes may hold %d bytes together; this one would pass that (%d read before it)", MaxProjectFileBytes, rr.total)
			}
			limit = MaxProjectEntries
		}
		if err != nil {
			rr.unread = append(rr.unread, p)
			return at(err)
		}
		if err := rr.merge(cfg, p, data, limit, at, chain); err != nil {
			return err
		}
	}
	return nil
}

// merge parses data, the rule file p that cfg includes (limit: a
// repository's entry cap, 0 for none), reads its own includes and adds
// its entries to cfg's. at makes an error name the include in cfg.
func (rr *ruleReader) merge(cfg *Config, p string, data []byte, limit int, at func(error) error, chain []string) error {
	// One merge-key budget, one of did-you-mean searches and one of
	// warnings shown for the including file and every file it
	// includes (load_share.go).
	sub, err := parseConfigWithin(data, p, limit, false, cfg.shared())
	if err != nil {
		return err
	}
	sub.builtin = rr.builtinIn(p)
	sub.Warnings = cfg.shared().keepWarnings(sub.Warnings)
	if limit > 0 {
		// Counted before its own includes add theirs to it. Past the
		// cap the load fails rather than drop rules: a rule file's
		// guard must not go missing with a warning.
		if rr.entries += len(sub.Entries); rr.entries > MaxProjectEntries {
			return at(fmt.Errorf("a repository's or bundle's hooks file and the rule files it includes may declare %d hooks together; this one would pass that (%d before it)", MaxProjectEntries, rr.entries-len(sub.Entries)))
		}
	}
	if rr.root == "" && !rr.managed && !IsBuiltin(p) {
		sub.warnWritable(p) // the user's own, run unapproved
	}
	if err := rr.includeRules(sub, append(chain, p)); err != nil {
		return err
	}
	for _, e := range sub.Entries {
		if e.Rule() == nil {
			return &ConfigError{Path: p, Line: entryLine(data, e), Err: fmt.Errorf("hooks.%s[%d]: a rule file holds rule entries only (rule:, decision:, message:); put hooks that run a command in the config itself", e.DeclaredAs, e.Index)}
		}
	}
	for _, k := range sub.settings {
		sub.warnKey(k, p, k+": is not read in a rule file (only hooks: and rules: are); it is ignored")
	}
	cfg.Entries = append(cfg.Entries, sub.Entries...)
	cfg.Warnings = append(cfg.Warnings, sub.Warnings...)
	return nil
}

// partialOf makes cfg, whose own file parsed, the Partial of err, the
// error of a rule file it includes: with the entries of that file that
// parsed, when it did not.
func partialOf(err error, cfg *Config) {
	ce, ok := err.(*ConfigError)
	if !ok {
		return
	}
	if ce.Partial != nil && ce.Partial != cfg {
		cfg.Entries = append(cfg.Entries, ce.Partial.Entries...)
	}
	ce.Partial = cfg
}

// includeError is the error of include inc of the config at path, whose
// file p could not be read or included: the path once, then the reason
// (not Go's "open P: ..."), and for a relative name not found the folder
// it was read from.
func includeError(path string, inc ruleInclude, p string, err error) *ConfigError {
	err = fsutil.WithoutPath(p, err)
	switch {
	case errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(inc.name, "*?["):
		// A glob of the ready-made rules' folder: read as one name.
		err = fmt.Errorf("%w (rules: does not expand *: name each file to include)", err)
	case errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(inc.name) && !strings.HasPrefix(inc.name, "~"):
		// The folder whole: a config named by a relative --config has
		// one relative to nothing the message shows (".").
		dir := filepath.Dir(path)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		err = fmt.Errorf("%w (a relative path is read from the config's folder, %s)", err, dir)
	case errors.Is(err, fsutil.ErrNotRegular) && strings.HasSuffix(err.Error(), "(a directory)"):
		// The ready-made rules' folder named whole.
		err = fmt.Errorf("%w: rules: lists files, not a folder: name each one to include (rules: [DIR/a.yaml, DIR/b.yaml])", err)
	}
	return &ConfigError{Path: path, Line: inc.line, Err: fmt.Errorf("rules: %s: %w", p, err)}
}

// missingIncludes records, for the user's own config that failed to
// parse, each rules: include that does not exist: validate lists it with
// the file's other problems, not once those are fixed (includes are read
// after a parse that succeeds). A repository's file is not looked past:
// what it names is read only within its own bounds.
func (cfg *Config) missingIncludes() {
	for _, inc := range cfg.ruleFiles {
		if IsBuiltin(inc.name) {
			// Looked up, never stat'ed: an unknown name is listed too.
			if _, _, err := BuiltinRule(inc.name); err != nil {
				cfg.loadFail(&ConfigError{Path: cfg.Path, Line: inc.line, Err: fmt.Errorf("rules: %s: %w", shownInclude(inc.name), err)})
			}
			continue
		}
		p := resolvePath(inc.name, filepath.Dir(cfg.Path))
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			cfg.loadFail(includeError(cfg.Path, inc, p, err))
		}
	}
}

// entryLine is the line of entry e in the rule file data (0: not found),
// read again only for the error that names it.
func entryLine(data []byte, e *Entry) int {
	root, err := parseYAML(data)
	if err != nil {
		return 0
	}
	hooks := pyyaml.MappingGet(root, "hooks")
	if hooks == nil || hooks.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(hooks.Content); i += 2 {
		if l := hooks.Content[i+1]; hooks.Content[i].Value == e.DeclaredAs && l.Kind == yaml.SequenceNode && e.Index < len(l.Content) {
			return l.Content[e.Index].Line
		}
	}
	return 0
}

func (rr *ruleReader) seen(p string) bool {
	for _, q := range rr.read {
		if q == p || sameFile(q, p) {
			return true
		}
	}
	return false
}

// loadRules reads cfg's rule files (root: see ruleReader) and lists them
// in RuleFiles; size is the bytes of cfg's own file, which a repository's
// rule files share their budget with.
func (cfg *Config) loadRules(root string, size int) error {
	if len(cfg.ruleFiles) == 0 {
		return nil
	}
	rr := &ruleReader{root: root, entries: len(cfg.Entries), total: projectBytes(size)}
	err := rr.includeRules(cfg, []string{cfg.Path})
	cfg.RuleFiles = append(cfg.RuleFiles, rr.read...)
	cfg.unread = append(cfg.unread, rr.unread...)
	cfg.noteDroppedWarnings()
	return err
}

// noteDroppedWarnings says, once its rule files are read, how many of
// their warnings cfg's load left out.
func (cfg *Config) noteDroppedWarnings() {
	if w, ok := cfg.shared().droppedWarning(cfg); ok {
		cfg.Warnings = append(cfg.Warnings, w)
	}
}
