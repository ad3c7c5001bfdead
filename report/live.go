package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// SlowFraction is where `doctor --live` calls a hook slow: its recent p99
// above this share of its timeout. Past half, an ordinary bad day (a cold
// cache, a busy machine) is enough to time it out, and a timed-out guard
// fails open or, fail_closed, blocks every call.
const SlowFraction = 0.5

// LiveReport is `doctor --live`: a running server's view of the hooks (GET
// /v1/hooks and /v1/stats) checked against the config on disk.
type LiveReport struct {
	Server     string `json:"server"`
	Generation int64  `json:"generation"`
	Config     string `json:"config"`
	Since      string `json:"since"`
	// Checks are about the server as a whole (a failed reload, another
	// config file).
	Checks   []Check    `json:"checks"`
	Hooks    []LiveHook `json:"hooks"`
	Problems int        `json:"problems"`
	Healthy  bool       `json:"healthy"`
}

// LiveHook is one hook, configured on disk, loaded by the server, or both.
type LiveHook struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Matcher string `json:"matcher,omitempty"`
	Source  string `json:"source"`
	// OnDisk: in the config as loaded now; Loaded: in the server's
	// configuration in service.
	OnDisk   bool       `json:"on_disk"`
	Loaded   bool       `json:"loaded"`
	Stats    *HookStats `json:"stats,omitempty"`
	Checks   []Check    `json:"checks"`
	Problems int        `json:"problems"`
}

func (h *LiveHook) add(level CheckLevel, text string) {
	h.Checks = append(h.Checks, Check{level, text})
	if level == CheckWarn || level == CheckFail {
		h.Problems++
	}
}

// liveKey is what identifies a hook across the disk config, GET /v1/hooks
// and GET /v1/stats: all three carry it.
type liveKey struct{ event, command, matcher, source, dialect string }

// LiveDoctor compares what a server reports (listing: GET /v1/hooks;
// stats: GET /v1/stats) with the hooks of the config on disk (disk, as
// Inspect returns them) and grades every hook: configured but not loaded,
// loaded but not runnable (not approved, changed since approval, script
// missing), configured with a warning (a matcher that cannot compile),
// never fired, failing (errors, timeouts), slow (p99 above SlowFraction
// of its timeout). warnings are the disk config's load warnings
// (cfg.Warnings, and the dispatcher's own, such as a settings file's bad
// matcher); those that name a hook are attached to it.
func LiveDoctor(server, configPath string, disk []HookStatus, warnings []string, listing Listing, stats Stats) LiveReport {
	r := LiveReport{Server: server, Generation: stats.Generation, Config: listing.Config, Since: stats.Since.Format(time.RFC3339),
		Checks: []Check{}, Hooks: []LiveHook{}}
	if stats.ReloadError != "" {
		r.Checks = append(r.Checks, Check{CheckFail, "the server's last reload failed, it still serves generation " +
			strconv.FormatInt(stats.Generation, 10) + ": " + stats.ReloadError})
	}
	// The server names files as it was given them, relative to its own
	// directory: resolve them before comparing with the disk's.
	abs := func(p string) string {
		if p != "" && listing.Cwd != "" && !filepath.IsAbs(p) && !hookconfig.IsBuiltin(p) {
			return filepath.Join(listing.Cwd, p)
		}
		return p
	}
	listing.Config = abs(listing.Config)
	listing.Hooks = slices.Clone(listing.Hooks)
	for i := range listing.Hooks {
		listing.Hooks[i].Source = abs(listing.Hooks[i].Source)
	}
	stats.Hooks = slices.Clone(stats.Hooks)
	for i := range stats.Hooks {
		stats.Hooks[i].Source = abs(stats.Hooks[i].Source)
	}
	otherConfig := !sameFile(listing.Config, configPath)
	if otherConfig {
		r.Checks = append(r.Checks, Check{CheckWarn, "the server reads " + listing.Config + ", not " + configPath + " (checked here)"})
	}
	// Pair the n-th hook of a key on disk with the n-th the server lists.
	loaded := map[liveKey][]int{}
	for i := range listing.Hooks {
		k := infoKey(&listing.Hooks[i])
		loaded[k] = append(loaded[k], i)
	}
	byStats := map[liveKey][]int{}
	for i := range stats.Hooks {
		k := statsKey(&stats.Hooks[i])
		byStats[k] = append(byStats[k], i)
	}
	used := make([]bool, len(listing.Hooks))
	taken := map[liveKey]int{}
	for i := range disk {
		st := &disk[i]
		e := st.Entry
		k := liveKey{e.DeclaredAs, e.Text(), e.Matcher, e.Source, string(e.Dialect)}
		n := taken[k]
		taken[k]++
		h := LiveHook{Event: e.DeclaredAs, Command: e.Text(), Matcher: e.Matcher, Source: e.Source, OnDisk: true, Checks: []Check{}}
		var info *HookInfo
		if n < len(loaded[k]) {
			j := loaded[k][n]
			used[j], info = true, &listing.Hooks[j]
			if n < len(byStats[k]) {
				h.Stats = &stats.Hooks[byStats[k][n]]
			}
		}
		h.Loaded = info != nil
		if e.Duplicate {
			h.add(CheckInfo, "duplicate of an entry above (same event, matcher and command): it runs once, as that entry")
			r.add(h)
			continue
		}
		if info == nil {
			why := "the server has not loaded the config since this hook was added or changed"
			if stats.ReloadError != "" {
				why = "the server's last reload failed (see above)"
			} else if otherConfig {
				why = "the server reads another config"
			}
			h.add(CheckFail, "configured in "+e.Source+" but not loaded by the server (generation "+
				strconv.FormatInt(stats.Generation, 10)+"): "+why)
		} else {
			h.add(CheckOK, "loaded by the server (generation "+strconv.FormatInt(stats.Generation, 10)+") from "+e.Source)
		}
		for _, w := range entryWarnings(e, warnings) {
			h.add(CheckWarn, "config warning: "+w)
		}
		if info != nil {
			serverChecks(&h, e, info)
			statsChecks(&h, e.Event.Name, h.Stats, stats)
		}
		r.add(h)
	}
	for j := range listing.Hooks {
		if used[j] {
			continue
		}
		info := &listing.Hooks[j]
		h := LiveHook{Event: info.Event, Command: info.Command, Matcher: info.Matcher, Source: info.Source, Loaded: true, Checks: []Check{}}
		if info.Duplicate {
			continue
		}
		why := "the server still serves an older config (generation " + strconv.FormatInt(stats.Generation, 10) + ")"
		if otherConfig {
			why = "the server reads another config"
		}
		h.add(CheckWarn, "loaded by the server but not in the config on disk: "+why)
		r.add(h)
	}
	for _, c := range r.Checks {
		if c.Level == CheckWarn || c.Level == CheckFail {
			r.Problems++
		}
	}
	r.Healthy = r.Problems == 0
	return r
}

func (r *LiveReport) add(h LiveHook) {
	r.Hooks = append(r.Hooks, h)
	r.Problems += h.Problems
}

func infoKey(h *HookInfo) liveKey {
	return liveKey{h.Event, h.Command, h.Matcher, h.Source, h.Dialect}
}

func statsKey(h *HookStats) liveKey {
	return liveKey{h.Event, h.Command, h.Matcher, h.Source, h.Dialect}
}

// serverChecks grades what the server says of the hook's consent and
// script: a loaded hook the server will not run is as good as absent.
func serverChecks(h *LiveHook, e *hookconfig.Entry, info *HookInfo) {
	hint := approveHint(e)
	switch {
	case !info.Approved:
		h.add(CheckFail, "not approved — the server does NOT run it ("+hint+")")
	case info.Drift != nil && info.Drift.Kind == consent.DriftHash.String():
		h.add(CheckFail, info.Drift.Message+" — the server does NOT run it until re-approved: "+hint)
	case info.Rule != nil && info.Rule.NoApproval:
		h.add(CheckOK, "needs no approval (a rule of your own config)")
	case info.ApprovedAt == "":
		h.add(CheckOK, "approved")
	default:
		h.add(CheckOK, "approved ("+info.ApprovedAt+")")
	}
	if !info.Executable {
		h.add(CheckFail, "script missing or not executable (chmod +x the file, or fix the path)")
	}
}

// statsChecks grades what the hook did since the server started.
func statsChecks(h *LiveHook, canonical string, s *HookStats, all Stats) {
	if s == nil {
		// Listed by GET /v1/hooks but not by /v1/stats: a reload between
		// the two requests. The next run of doctor sees both alike.
		h.add(CheckInfo, "no live stats for this hook yet (the server reloaded while it was asked)")
		return
	}
	switch fired := s.Fired(); {
	case fired > 0:
		last := ""
		if s.LastFired != nil {
			last = ", last at " + s.LastFired.Format("2006-01-02 15:04:05")
		}
		blocked := ""
		if s.Blocks > 0 {
			blocked = ", blocked " + times(s.Blocks)
		}
		h.add(CheckOK, "fired "+times(fired)+blocked+last)
	case s.Skipped > 0:
		h.add(CheckFail, "matched "+times(s.Matched)+" but never ran: "+s.LastSkip)
	case s.Matched > 0:
		// It could not start: the errors line below says why.
	case all.Dispatches[canonical] > 0:
		h.add(CheckWarn, fmt.Sprintf("never fired in %d %s dispatch(es) since the server started: its matcher never fit", all.Dispatches[canonical], canonical))
	default:
		h.add(CheckInfo, "never fired: no "+canonical+" dispatched since the server started")
	}
	if s.Errors > 0 {
		h.add(CheckFail, "failed "+times(s.Errors)+": "+s.LastError)
	}
	switch {
	case s.WorkerFailed != "":
		h.add(CheckFail, "worker "+s.WorkerFailed)
	case s.Workers != nil:
		h.add(CheckInfo, fmt.Sprintf("worker: %d process(es) live", *s.Workers))
	}
	if s.Timeouts > 0 {
		h.add(CheckFail, "timed out "+times(s.Timeouts)+" (timeout "+seconds(s.Timeout)+"s)")
	}
	if el := s.ElapsedMS; el != nil && s.Timeout > 0 {
		text := fmt.Sprintf("p50 %s ms, p99 %s ms over the last %s (timeout %ss)", ms(el.P50), ms(el.P99), plural(int64(el.Samples), "run", "runs"), seconds(s.Timeout))
		if el.P99 > SlowFraction*s.Timeout*1000 {
			h.add(CheckWarn, "slow: "+text+" — p99 is over half the timeout")
		} else {
			h.add(CheckOK, text)
		}
	}
}

func ms(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func seconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// entryWarnings are the load warnings about e: a YAML entry's are located
// "hooks.EVENT[INDEX]…", a settings file's "FILE: hooks.EVENT[GROUP]…" and
// the dispatcher's "hook COMMAND: …". A warning that names no hook stays
// with the config (the plain doctor and `list` print it).
func entryWarnings(e *hookconfig.Entry, warnings []string) []string {
	at := "hooks." + e.DeclaredAs + "[" + strconv.Itoa(e.Index) + "]"
	var out []string
	for _, w := range warnings {
		switch {
		case strings.HasPrefix(w, at+".") || strings.HasPrefix(w, at+":"):
			if e.RunBy == "" {
				out = append(out, w)
			}
		case e.Source != "" && strings.HasPrefix(w, e.Source+": "+at):
			out = append(out, w)
		case strings.HasPrefix(w, "hook "+e.Text()+": "):
			out = append(out, w)
		}
	}
	return out
}

// sameFile compares two spellings of a path (the server and this process
// may have been given it relative to different directories; absolute is
// the best that can be done from here).
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// times says "once", "2 times": counts in words, without "(s)".
func times(n int64) string { return plural(n, "time", "times") }

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}
