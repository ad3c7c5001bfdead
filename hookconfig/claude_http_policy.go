package hookconfig

import "slices"

// applyClaudeHTTPPolicy honours allowedHttpHookUrls and
// httpHookAllowedEnvVars of the managed settings and the user's own
// settings files for the http hooks of every settings file, a project's
// included: an http hook to a URL none of their patterns matches is
// skipped, and a hook's allowedEnvVars keeps only the variables their
// lists name. Each key's lists from those files are merged, as Claude
// Code merges arrays across settings. A project's own lists only narrow
// its own hooks (parseClaudeShaped): a repository that names a URL or a
// variable of its own cannot widen what the user allowed, so its hook
// cannot post the payload, or a secret of the user's environment,
// anywhere else.
func (cfg *Config) applyClaudeHTTPPolicy() {
	var urls, envVars []string
	for _, sw := range cfg.claudeSwitches {
		if !isManagedSettings(sw.path) && sw.project != "" {
			continue
		}
		// An empty list is there, and allows nothing: the merge starts
		// from an empty, non-nil list.
		if sw.httpURLs != nil {
			urls = append(append([]string{}, urls...), sw.httpURLs...)
		}
		if sw.httpEnvVars != nil {
			envVars = append(append([]string{}, envVars...), sw.httpEnvVars...)
		}
	}
	if urls == nil && envVars == nil {
		return
	}
	settings := cfg.switchedFiles()
	kept := cfg.Entries[:0]
	for _, e := range cfg.Entries {
		s, isHTTP := e.Spec.(*HTTPSpec)
		if !isHTTP || !settings[e.Source] {
			kept = append(kept, e)
			continue
		}
		if urls != nil && !urlAllowed(s.URL, urls) {
			cfg.warn(e.Source, "http hook url "+ShownURL(s.URL)+" is not in the user's allowedHttpHookUrls; skipped, as in Claude Code")
			continue
		}
		if envVars != nil {
			narrowed := *s
			narrowed.AllowedEnvVars = slices.DeleteFunc(slices.Clone(s.AllowedEnvVars), func(v string) bool { return !slices.Contains(envVars, v) })
			e.Spec = &narrowed
		}
		kept = append(kept, e)
	}
	clear(cfg.Entries[len(kept):])
	cfg.Entries = kept
}

// switchedFiles are the settings files the switches apply to: those of the
// agents whose files have Claude Code's settings keys.
func (cfg *Config) switchedFiles() map[string]bool {
	settings := map[string]bool{}
	for _, k := range agentFileKinds() {
		if k.agent.Source.Switches {
			for _, p := range cfg.AgentFiles[k.agent.Name] {
				settings[p] = true
			}
		}
	}
	return settings
}

// stringList is a JSON array's strings (nil when v is no array; an empty
// array is an empty, non-nil list).
func stringList(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []string{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
