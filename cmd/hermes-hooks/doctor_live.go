package main

import (
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/report"
	"github.com/hermes-hooks/hermes-hooks/server"
)

// runDoctorLive asks a running `hermes-hooks serve` what it has loaded and
// done (GET /v1/hooks, GET /v1/stats) and checks that against the config
// on disk, loaded as the plain doctor loads it.
func runDoctorLive(a *app, o doctorOptions) error {
	target := o.server
	if target == "" {
		home, err := a.Home()
		if err != nil {
			return err
		}
		// The user-level server's socket when there is one (serve --user,
		// as hook looks for it), else the per-project default.
		target = server.DefaultAddr(home).String()
		if user := server.UserAddr(home); server.Present(user) {
			target = user.String()
		}
	}
	// A client may connect wherever its user points it: the loopback rule
	// protects what a server exposes, not what a doctor reads.
	addr, err := server.ParseAddr(target, true)
	if err != nil {
		return usageErr("use --server unix:///path/to/sock or --server tcp://127.0.0.1:PORT", "%v", err)
	}
	var listing report.Listing
	var stats report.Stats
	query := liveQuery(addr)
	for _, q := range []struct {
		path string
		into any
	}{{"/v1/hooks", &listing}, {"/v1/stats", &stats}} {
		if err := server.Get(addr, q.path+query, q.into); err != nil {
			return withHint(fmt.Errorf("no hermes-hooks serve answers at %s: %w", addr.String(), err),
				"start one with `hermes-hooks serve`, or name it with --server unix:///path or tcp://127.0.0.1:PORT")
		}
	}

	// The config the server reads, from where it reads it: its path (as
	// it was named, relative to the server's directory) and its project,
	// unless --config names another on purpose.
	dir := cli.Cwd()
	if listing.Cwd != "" {
		dir = listing.Cwd
	}
	if a.ConfigPath == "" && listing.Config != "" {
		a.ConfigPath = listing.Config
		if !filepath.IsAbs(a.ConfigPath) {
			a.ConfigPath = filepath.Join(dir, a.ConfigPath)
		}
	}
	cfg, _, statuses, err := a.inspectIn(dir, func() (*hookconfig.Config, error) { return a.LoadConfigFor(dir) })
	if err != nil {
		// What the server does meanwhile is what the user asked about.
		return withHint(err, fmt.Sprintf("the server at %s still answers from generation %d (%d hooks), the last config that loaded; "+
			"the tool calls forwarded to it are refused, as a one-shot refuses them, until the config on disk loads", addr.String(), stats.Generation, len(listing.Hooks)))
	}
	warnings := make([]string, 0, len(cfg.Warnings))
	for _, w := range cfg.Warnings {
		warnings = append(warnings, w.String())
	}
	// Building a dispatcher compiles what Load leaves to it (an agent
	// settings file's matchers) and says what it cannot compile. Nothing
	// runs: the gate is never asked.
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: dir, OneShotWorkers: true,
		Warn: func(msg string) { warnings = append(warnings, msg) }})
	if err != nil {
		return err
	}
	d.Close()
	path, _ := a.Config()
	r := report.LiveDoctor(addr.String(), path, statuses, warnings, listing, stats)
	if o.json {
		if err := writeJSON(a.Out, r); err != nil {
			return err
		}
	} else {
		report.PrintLiveDoctor(a.Out, &r)
	}
	if r.Problems > 0 {
		return silentExit(1)
	}
	return nil
}

// liveQuery names this directory as the project to a user-level server
// (serve --user answers for every project, each request naming its own, as
// hook's do); a per-project server needs no query. A server that does not
// say it is user-level (an older one, or /healthz unreachable) gets none:
// the GETs then say what is wrong.
func liveQuery(addr server.Addr) string {
	var h struct {
		Mode string `json:"mode"`
	}
	if server.Get(addr, "/healthz", &h) != nil || h.Mode != "user" {
		return ""
	}
	wd := cli.Cwd()
	return "?" + url.Values{"project": {wd}, server.QueryWorkdir: {wd}}.Encode()
}
