package report

import (
	"bytes"
	"encoding/json"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// Listing is the whole configuration as `list --json` prints it. Its JSON
// names each agent's hook files by the agent's config key
// (claude_settings, codex_hooks …), right after config (see MarshalJSON).
type Listing struct {
	Config string `json:"-"`
	// AgentFiles are the agents' hook files that were read, by agent name.
	AgentFiles map[string][]string `json:"-"`
	listingTail
}

// listingTail is what a Listing's JSON holds after the agents' files.
type listingTail struct {
	// Managed is the managed layer, first: what no user setting changes.
	Managed      *ManagedInfo `json:"managed,omitempty"`
	ProjectHooks string       `json:"project_hooks,omitempty"`
	// Cwd is the working directory of the listing process (the server's,
	// for GET /v1/hooks): where its project's hooks are found and relative
	// paths resolved, so that doctor --live can read the config the server
	// reads.
	Cwd       string     `json:"cwd,omitempty"`
	Allowlist string     `json:"allowlist"`
	Hooks     []HookInfo `json:"hooks"`
	// Foreign are the lines in the form of ours that run another program
	// (ForeignLines): not hooks, but what an agent runs itself.
	Foreign     []ForeignCommand  `json:"foreign_commands,omitempty"`
	Warnings    []string          `json:"warnings"`
	ToolAliases map[string]string `json:"tool_aliases"`
}

// MarshalJSON writes config, then one list per agent (its config key, in
// the agents' order; [] for none), then the rest.
func (l Listing) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"config":`)
	if err := writeValue(&b, l.Config); err != nil {
		return nil, err
	}
	for _, a := range agents.All() {
		if a.Source.ConfigKey == "" {
			continue // its hook files are no hook source
		}
		files := l.AgentFiles[a.Name]
		if files == nil {
			files = []string{}
		}
		b.WriteString(`,"` + a.Source.ConfigKey + `":`)
		if err := writeValue(&b, files); err != nil {
			return nil, err
		}
	}
	var t bytes.Buffer
	if err := writeValue(&t, l.listingTail); err != nil {
		return nil, err
	}
	if tail := t.Bytes(); len(tail) > 2 {
		b.WriteByte(',')
		b.Write(tail[1:])
	} else {
		b.WriteByte('}')
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes (doctor --live reads a
// server's listing).
func (l *Listing) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	*l = Listing{AgentFiles: map[string][]string{}}
	if raw, ok := members["config"]; ok {
		if err := json.Unmarshal(raw, &l.Config); err != nil {
			return err
		}
	}
	for _, a := range agents.All() {
		if raw, ok := members[a.Source.ConfigKey]; ok {
			var files []string
			if err := json.Unmarshal(raw, &files); err != nil {
				return err
			}
			l.AgentFiles[a.Name] = files
		}
	}
	return json.Unmarshal(data, &l.listingTail)
}

// writeValue appends v's JSON without escaping HTML characters, as the
// encoders of list --json and the server write the rest.
func writeValue(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// NewListing describes a configuration and its hooks' consent state.
func NewListing(configPath string, cfg *hookconfig.Config, allowlistPath string, statuses []HookStatus) Listing {
	l := Listing{
		Config:     configPath,
		AgentFiles: map[string][]string{},
		listingTail: listingTail{
			Managed:      NewManagedInfo(cfg),
			ProjectHooks: cfg.ProjectHooks,
			Allowlist:    allowlistPath,
			Hooks:        make([]HookInfo, 0, len(statuses)),
			Warnings:     make([]string, 0, len(cfg.Warnings)),
			ToolAliases:  cfg.Tools.Pairs(),
		},
	}
	for name, files := range cfg.AgentFiles {
		l.AgentFiles[name] = append([]string{}, files...)
	}
	for i := range statuses {
		l.Hooks = append(l.Hooks, NewHookInfo(&statuses[i]))
	}
	l.Foreign = ForeignLines(cfg)
	for _, w := range cfg.Warnings {
		l.Warnings = append(l.Warnings, w.String())
	}
	return l
}
