package hookconfig

import "slices"

// SourceFiles are the files cfg's content was read from: the config, the
// agents' hook files, the project's hooks file, every rule file and the
// managed layer's files — once each, sorted. A dispatch checks them
// settled (not being written) before it trusts what it read.
func (cfg *Config) SourceFiles() []string {
	var out []string
	if cfg.Path != "" {
		out = append(out, cfg.Path)
	}
	out = append(out, cfg.AgentHookFiles()...)
	if cfg.ProjectHooks != "" {
		out = append(out, cfg.ProjectHooks)
	}
	out = append(out, cfg.RuleFiles...)
	out = append(out, cfg.Managed.Files...)
	out = append(out, cfg.Managed.RuleFiles...)
	for _, e := range cfg.Entries {
		if e.Source != "" {
			out = append(out, e.Source)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
