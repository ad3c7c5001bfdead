package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// OpenPluginName is the name of the Open Plugins plugin install writes.
const OpenPluginName = "hermes-hooks"

// openPluginSchema is the manifest schema identifier the Agent Plugins
// specification 1.0.0 requires in plugin.json ($schema, §5.2).
const openPluginSchema = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"

// openPluginManifest is plugin.json at the plugin root: $schema and name
// are required, description is metadata.
func openPluginManifest(agent *agents.Agent) []byte {
	doc := pyjson.OrderedObject{
		{Key: "$schema", Value: openPluginSchema},
		{Key: "name", Value: OpenPluginName},
		{Key: "description", Value: "Runs hermes-hooks (`hermes-hooks hook " + agent.Name + "`) for the agent's hook events; written by `hermes-hooks install open-plugin`, removed by `hermes-hooks uninstall open-plugin`."},
	}
	return layout(doc, nil)
}

// MakeOpenPlugin plans an Open Plugins plugin in dir (the plugin root, as
// .agents/plugins/hermes-hooks): plugin.json and hooks/hooks.json, whose
// hooks run command(event) for every Open Plugins event agent registers.
// Uninstall removes exactly those two files (and the folders left empty);
// either, edited since install wrote it (a plugin.json extended with a
// version, say), is kept as a copy before it is replaced or removed.
// A file there that is not ours — another plugin's manifest, a hooks.json
// with a command of someone else's — is never touched: an error says so.
func MakeOpenPlugin(dir string, agent *agents.Agent, command func(event string) string, uninstall bool) (*PluginPlan, error) {
	shaped := agents.OpenPluginShape(agent)
	if shaped == nil {
		return nil, fmt.Errorf("%s registers no Open Plugins hook event", agent.Title)
	}
	hooks, _, err := shaped.Install(nil, command)
	if err != nil {
		return nil, err
	}
	want := []struct {
		rel            string
		data           []byte
		ours, pristine func([]byte) bool
	}{
		{"plugin.json", openPluginManifest(agent), ownManifest, pristineManifest},
		{filepath.Join("hooks", "hooks.json"), layout(hooks, nil), ownHooks, pristineHooks},
	}
	plan := &PluginPlan{Dir: dir}
	for _, w := range want {
		p := filepath.Join(dir, w.rel)
		if real, top := resolve(p), resolve(dir); !fsutil.InTree(real, top) {
			// A link in the folder (hooks -> ~/.cursor) must not make
			// install write a hooks.json another agent reads.
			return nil, fmt.Errorf("%s: a symbolic link leads it to %s, outside the plugin's folder %s; not changed", p, real, top)
		}
		old, err := readBounded(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if old != nil && !w.ours(old) {
			return nil, fmt.Errorf("%s is not one hermes-hooks wrote; not touched", p)
		}
		fw := ownedFile(p, old, w.data, w.pristine, uninstall)
		plan.Changed = plan.Changed || fw.Changed
		plan.Files = append(plan.Files, fw)
	}
	return plan, nil
}

// ownManifest: a plugin.json naming our plugin.
func ownManifest(data []byte) bool {
	v, err := pyjson.DecodeOrdered(data)
	doc, ok := v.(pyjson.OrderedObject)
	if err != nil || !ok {
		return false
	}
	name, _ := doc.Get("name")
	return name == OpenPluginName
}

// ownHooks: a hooks.json whose every command is one install writes (for
// any agent), with at least one.
func ownHooks(data []byte) bool {
	v, err := pyjson.DecodeOrdered(data)
	doc, ok := v.(pyjson.OrderedObject)
	if err != nil || !ok {
		return false
	}
	n := 0
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case pyjson.OrderedObject:
			for _, m := range x {
				if m.Key == "command" {
					c, _ := m.Value.(string)
					if !agents.IsOwnCommand(c, "") {
						return false
					}
					n++
				} else if !walk(m.Value) {
					return false
				}
			}
		case []any:
			for _, e := range x {
				if !walk(e) {
					return false
				}
			}
		}
		return true
	}
	return walk(doc) && n > 0
}

// pristineManifest: plugin.json exactly as install writes it, for some
// agent.
func pristineManifest(data []byte) bool {
	for _, a := range agents.All() {
		if agents.OpenPluginShape(a) != nil && bytes.Equal(data, openPluginManifest(a)) {
			return true
		}
	}
	return false
}

// pristineHooks: hooks/hooks.json exactly as install writes it, for some
// agent and the binary path its first command names.
func pristineHooks(data []byte) bool {
	v, err := pyjson.DecodeOrdered(data)
	if err != nil {
		return false
	}
	exe, ok := agents.OwnProgram(firstCommand(v))
	if !ok {
		return false
	}
	for _, a := range agents.All() {
		shaped := agents.OpenPluginShape(a)
		if shaped == nil {
			continue
		}
		// Install writes either form: hermes-hooks by name from PATH, or
		// (--absolute) the binary the first command names, behind its
		// guard; an older install wrote that path bare.
		forms := []func(string) string{HookCommand(a, "")}
		if exe != "" {
			today := HookCommand(a, exe)
			bare := func(ev string) string {
				c := today(ev)
				return shquote.Quote(exe) + c[strings.LastIndex(c, " hook "+a.Name):]
			}
			forms = append(forms, today, bare)
		}
		for _, command := range forms {
			hooks, _, err := shaped.Install(nil, command)
			if err == nil && bytes.Equal(data, layout(hooks, nil)) {
				return true
			}
		}
	}
	return false
}

// firstCommand is the first "command" string in v, depth first.
func firstCommand(v any) string {
	switch x := v.(type) {
	case pyjson.OrderedObject:
		for _, m := range x {
			if c, ok := m.Value.(string); ok && m.Key == "command" {
				return c
			}
			if c := firstCommand(m.Value); c != "" {
				return c
			}
		}
	case []any:
		for _, e := range x {
			if c := firstCommand(e); c != "" {
				return c
			}
		}
	}
	return ""
}
