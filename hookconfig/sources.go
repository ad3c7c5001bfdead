package hookconfig

import (
	"path/filepath"
	"slices"
	"strings"
)

// SourceFiles are the files cfg's content was read from — the config, the
// agents' hook files, each project's hooks file and the rule files, the
// bundles' fragments and the managed layer's files — once each, sorted. A
// dispatch checks them settled (none written to while read, none open for
// writing) before it trusts what it read of them.
//
// A project or bundle that did not load is left out: its loss already
// has its answer (Unloaded), and a repository that named a file some
// program keeps open (its dev server's log) would otherwise make every
// call wait for a writer that never finishes.
func (cfg *Config) SourceFiles() []string {
	var out []string
	if cfg.Path != "" {
		out = append(out, cfg.Path)
	}
	out = append(out, cfg.AgentHookFiles()...)
	out = append(out, cfg.ProjectFiles...)
	out = append(out, cfg.RuleFiles...)
	out = append(out, cfg.BundleFiles...)
	out = append(out, cfg.Managed.Files...)
	out = append(out, cfg.Managed.RuleFiles...)
	for _, e := range cfg.Entries {
		if f := e.SourceFile(); f != "" {
			out = append(out, f)
		}
	}
	out = slices.DeleteFunc(out, cfg.fromUnloaded)
	slices.Sort(out)
	return slices.Compact(out)
}

// fromUnloaded says whether file belongs to a project or bundle that did
// not load (a repository's files are inside it; a bundle's in its folder).
func (cfg *Config) fromUnloaded(file string) bool {
	for _, u := range cfg.Unloaded {
		dir := u.Project
		if u.Bundle {
			dir = u.bundleDir
		}
		if dir != "" && (file == dir || strings.HasPrefix(file, dir+string(filepath.Separator))) {
			return true
		}
	}
	return false
}

// FilesRead is how many config files cfg's load read (validate's
// "files"): the config when it was there, the agents' hook files, the
// project hooks files, the managed layer's files, the rule files and the
// bundles' fragments. A rule file an include names that could not be read
// (missing, refused) is in RuleFiles, for serve to watch, but was not
// read, so it does not count.
func (cfg *Config) FilesRead() int {
	n := len(cfg.AgentHookFiles()) + len(cfg.ProjectFiles) + len(cfg.Managed.Files) + len(cfg.RuleFiles) + len(cfg.BundleFiles)
	for _, f := range cfg.unread {
		if slices.Contains(cfg.RuleFiles, f) {
			n--
		}
	}
	if cfg.Path != "" {
		n++
	}
	return n
}
