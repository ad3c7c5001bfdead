package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// A TOML admin file (Codex's requirements.toml) is edited as text: our
// entries are one marked block appended at its end (inline [[hooks.EVENT]]
// tables), and --managed-only one marked line among its top-level keys.
// Every other byte stays. The TOML library only checks: the file must
// parse before, and after the edit it must parse to exactly what it held
// plus our entries (verifyTOML), or nothing is written.

// Marks of what install writes into a TOML file; uninstall takes out
// exactly the lines between them (and the marked key line).
const (
	tomlBegin    = "# >>> hermes-hooks: written by `hermes-hooks install --managed`; `hermes-hooks uninstall --managed` removes this block\n"
	tomlEnd      = "# <<< hermes-hooks\n"
	tomlOnlyMark = " # hermes-hooks install --managed-only\n"
)

// makeTOML is Make for a TOML admin file: our hooks block added (only: and
// the agent's managed-only key), or taken out when uninstall is set.
func makeTOML(agent *agents.Agent, path string, command func(string) string, uninstall, only bool) (*Plan, error) {
	m := agent.ManagedLayer()
	given := path
	path = resolve(path)
	p := &Plan{Agent: agent, Path: path, given: given,
		remake: func() (*Plan, error) { return makeTOML(agent, given, command, uninstall, only) }}
	data, err := readBounded(path)
	switch {
	case err == nil:
		p.Old, p.Exists = data, true
	case errors.Is(err, fs.ErrNotExist):
	case given != path:
		return nil, fmt.Errorf("%s: %w", given, err)
	default:
		return nil, err
	}
	// A byte order mark first (Codex skips it) is read past and kept
	// first in what is written, as edit keeps a JSON file's.
	body := pyjson.SkipBOM(p.Old)
	mark := p.Old[:len(p.Old)-len(body)]
	if _, err := decodeTOML(path, body); err != nil {
		return nil, err
	}
	// The marked managed-only line goes with uninstall --managed-only
	// only, as the key of a JSON file does; install keeps it.
	onlyKey := ""
	if uninstall && only {
		onlyKey = m.OnlyKey
	}
	bare, err := stripTOML(path, body, onlyKey)
	if err != nil {
		return nil, err
	}
	add := func(base []byte) ([]byte, error) { return addTOML(path, base, agent, command, only) }
	if uninstall {
		p.New = withMark(mark, bare)
		if prev, ok := restorableTOML(path, bare, add, onlyKey); ok {
			p.New, p.Restored = prev, true
		}
		p.Changed = !bytes.Equal(p.New, p.Old)
		p.Remove = p.Changed && len(bytes.TrimSpace(pyjson.SkipBOM(p.New))) == 0 && (p.Restored || !backupExists(path))
		return p, nil
	}
	made, err := add(bare)
	if err != nil {
		return nil, err
	}
	p.New = withMark(mark, made)
	p.Changed = !bytes.Equal(p.New, p.Old)
	return p, nil
}

// withMark is data with mark (a byte order mark or nothing) first.
func withMark(mark, data []byte) []byte {
	if len(mark) == 0 {
		return data
	}
	return append(append([]byte(nil), mark...), data...)
}

// backupExists says install kept a backup of path (the file was there
// before install).
func backupExists(path string) bool {
	_, err := readBounded(path + BackupSuffix)
	return err == nil
}

// restorableTOML returns the backup when the file without our lines (bare)
// is what the backup becomes without them once install added them: nothing
// else changed since, whatever program our entries name.
func restorableTOML(path string, bare []byte, add func([]byte) ([]byte, error), onlyKey string) ([]byte, bool) {
	raw, err := readBounded(path + BackupSuffix)
	if err != nil {
		return nil, false
	}
	prev := pyjson.SkipBOM(raw) // compared as bare is; restored whole
	made, err := add(prev)
	if err != nil {
		return nil, false
	}
	if again, err := stripTOML(path, made, onlyKey); err != nil || !bytes.Equal(again, bare) {
		return nil, false
	}
	return raw, true
}

// decodeTOML parses data; an error names the file, line and column.
func decodeTOML(path string, data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: not valid TOML (%s); not changed", path, line, col, de.Error())
		}
		return nil, fmt.Errorf("%s: not valid TOML (%v); not changed", path, err)
	}
	return doc, nil
}

// stripTOML is data without what install wrote: the marked block and the
// marked key line.
func stripTOML(path string, data []byte, onlyKey string) ([]byte, error) {
	s := string(data)
	if i := strings.Index(s, tomlBegin); i >= 0 {
		j := strings.Index(s[i:], tomlEnd)
		if j < 0 {
			return nil, fmt.Errorf("%s: the hermes-hooks block has no end mark (%q); not changed: fix the file by hand", path, strings.TrimSpace(tomlEnd))
		}
		// The block must be one install wrote: at a line's start, and on
		// its own nothing but hooks tables (not the marks' text inside an
		// administrator's multi-line string).
		block := s[i : i+j+len(tomlEnd)]
		if d, err := decodeTOML(path, []byte(block)); i > 0 && s[i-1] != '\n' || err != nil || len(d) != 1 || d["hooks"] == nil {
			return nil, fmt.Errorf("%s: the text between the hermes-hooks marks is not a block install wrote; not changed: fix the file by hand", path)
		}
		start := i
		if strings.HasSuffix(s[:i], "\n\n") {
			start-- // the blank line install put before the block
		}
		s = s[:start] + s[i+j+len(tomlEnd):]
	}
	if onlyKey != "" {
		s = strings.Replace(s, onlyKey+" = true"+tomlOnlyMark, "", 1)
	}
	if _, err := decodeTOML(path, []byte(s)); err != nil {
		return nil, fmt.Errorf("without its hermes-hooks lines the file would not parse: %w", err)
	}
	return []byte(s), nil
}

// addTOML is base (holding nothing of ours) with our block appended and,
// with only, the managed-only key among its top-level keys; checked to
// parse to base's content plus ours.
func addTOML(path string, base []byte, agent *agents.Agent, command func(string) string, only bool) ([]byte, error) {
	m := agent.ManagedLayer()
	orig, err := decodeTOML(path, base)
	if err != nil {
		return nil, err
	}
	block, groups, err := tomlBlock(agent, command)
	if err != nil {
		return nil, err
	}
	if key := inlineHooks(string(base), agent.HookFile.Events); key != "" {
		return nil, fmt.Errorf("%s: %s is written as a value (an inline table or array), which tables cannot extend; not changed: add hermes-hooks' entries by hand", path, key)
	}
	s := string(base)
	addOnly := false
	if only {
		switch v, ok := orig[m.OnlyKey]; {
		case !ok:
			addOnly = true
			s = insertTopLevel(s, m.OnlyKey+" = true"+tomlOnlyMark)
		case v != true:
			return nil, fmt.Errorf("%s: %s is %v; not changed (--managed-only sets it to true: change it by hand)", path, m.OnlyKey, v)
		}
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if s != "" {
		s += "\n"
	}
	s += block
	if err := verifyTOML(path, []byte(s), orig, groups, m.OnlyKey, addOnly); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// inlineHooks is the first key of data that gives hooks, or one of its
// events' lists, as a value ("hooks = {…}", "PreToolUse = […]" under
// [hooks], "hooks.Stop = […]"): TOML forbids extending those with tables
// (the TOML library here lets some through; Codex's does not). A line scan,
// erring on the side of refusing.
func inlineHooks(data string, events []string) string {
	table := ""
	for _, line := range strings.Split(data, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			table = normalizeKey(strings.Trim(strings.SplitN(l, "#", 2)[0], "[] \t"))
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if !ok || strings.HasPrefix(l, "#") {
			continue
		}
		key := normalizeKey(k)
		if table != "" {
			key = table + "." + key
		}
		if key == "hooks" {
			return key
		}
		for _, ev := range events {
			if key == "hooks."+ev {
				return key
			}
		}
	}
	return ""
}

// normalizeKey is a dotted TOML key without its quotes and the spaces
// around its dots.
func normalizeKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// insertTopLevel puts line before the file's first table header (a
// top-level key must come before every table), else at its end.
func insertTopLevel(s, line string) string {
	off := 0
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			return s[:off] + line + s[off:]
		}
		off += len(l)
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + line
}

// verifyTOML checks that data parses to orig plus our groups (one more
// matcher group at the end of each event's list) and, with addOnly, the
// managed-only key: a file whose hooks were written in a form our tables
// cannot extend (an inline array, say) is refused, never changed in
// meaning.
func verifyTOML(path string, data []byte, orig map[string]any, groups map[string]map[string]any, onlyKey string, addOnly bool) error {
	got, err := decodeTOML(path, data)
	if err != nil {
		return fmt.Errorf("hermes-hooks' entries cannot be added to this file's hooks (%v); not changed: add them by hand", err)
	}
	fail := func(why string) error {
		return fmt.Errorf("%s: hermes-hooks' entries cannot be added to this file (%s); not changed: add them by hand", path, why)
	}
	if addOnly {
		if got[onlyKey] != true {
			return fail(onlyKey + " would not be a top-level key")
		}
		delete(got, onlyKey)
	}
	hooks, _ := got["hooks"].(map[string]any)
	for ev, want := range groups {
		// An array of tables decodes as []any of maps; compared as JSON,
		// where the decoder's number and slice types do not matter.
		list, ok := hooks[ev].([]any)
		if !ok || len(list) == 0 || !sameJSON(list[len(list)-1], want) {
			return fail("its hooks." + ev + " would not end with ours")
		}
		if list = list[:len(list)-1]; len(list) == 0 {
			delete(hooks, ev)
		} else {
			hooks[ev] = list
		}
	}
	if _, had := orig["hooks"]; !had && len(hooks) == 0 {
		delete(got, "hooks")
	}
	if !reflect.DeepEqual(normalizeTOML(got), normalizeTOML(orig)) {
		return fail("something else in it would change")
	}
	return nil
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// normalizeTOML makes decoded documents comparable: an empty list of
// tables and an absent one are the same here.
func normalizeTOML(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// tomlBlock is our marked block: per event one matcher group with one
// handler, its members as the agent's own Install writes them (type,
// command, commandWindows, timeout); and the groups as the TOML decoder
// reads them back, for verifyTOML.
func tomlBlock(agent *agents.Agent, command func(string) string) (string, map[string]map[string]any, error) {
	doc, _, err := agent.Install(pyjson.OrderedObject{}, command)
	if err != nil {
		return "", nil, err
	}
	hooks, _ := mustGet(doc, "hooks").(pyjson.OrderedObject)
	var b strings.Builder
	b.WriteString(tomlBegin)
	groups := map[string]map[string]any{}
	for _, ev := range agent.HookFile.Events {
		list, _ := mustGet(hooks, ev).([]any)
		if len(list) != 1 {
			continue
		}
		group, _ := list[0].(pyjson.OrderedObject)
		handlers, _ := mustGet(group, "hooks").([]any)
		if len(handlers) != 1 {
			return "", nil, fmt.Errorf("%s: an entry of %s is not one handler", agent.Title, ev)
		}
		h, _ := handlers[0].(pyjson.OrderedObject)
		fmt.Fprintf(&b, "[[hooks.%s]]\n[[hooks.%s.hooks]]\n", ev, ev)
		handler := map[string]any{}
		for _, mem := range h {
			v, dec, err := tomlValue(mem.Value)
			if err != nil {
				return "", nil, fmt.Errorf("%s: %s: %v", ev, mem.Key, err)
			}
			fmt.Fprintf(&b, "%s = %s\n", mem.Key, v)
			handler[mem.Key] = dec
		}
		groups[ev] = map[string]any{"hooks": []map[string]any{handler}}
	}
	b.WriteString(tomlEnd)
	return b.String(), groups, nil
}

// mustGet is obj's member key (nil when absent).
func mustGet(obj pyjson.OrderedObject, key string) any {
	v, _ := obj.Get(key)
	return v
}

// tomlValue writes a string or integer as TOML, and returns it as the
// decoder reads it back.
func tomlValue(v any) (string, any, error) {
	switch x := v.(type) {
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			return "", nil, err
		}
		// A JSON string of valid UTF-8 is a TOML basic string: the same
		// escapes (\" \\ \b \f \n \r \t \uXXXX).
		return strings.TrimSuffix(b.String(), "\n"), x, nil
	case int64:
		return strconv.FormatInt(x, 10), x, nil
	case bool:
		return strconv.FormatBool(x), x, nil
	}
	return "", nil, fmt.Errorf("value %v has no TOML form here", v)
}
