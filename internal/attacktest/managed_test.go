//go:build linux

package attacktest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The managed layer (issue 36, item 1) against whoever would switch it off:
// a repository, the user's own files, the user's environment. The managed
// guard blocks rm -rf ("managed: no"); every attack must leave that answer.

const managedGuard = "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"managed: no\"}'\n"

const managedConfig = "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      matcher: terminal\n      fail_closed: true\n"

// managedEnv is a scene with the managed config etc/config.yaml (its
// guard etc/guard.sh), named by HERMES_HOOKS_MANAGED_CONFIG, a user config
// with no hooks and a repository (repo, a git checkout).
func managedEnv(t *testing.T, config string) *env {
	e := newEnv(t)
	e.write("etc/config.yaml", config, 0o644)
	e.write("etc/guard.sh", managedGuard, 0o755)
	must(t, os.Chmod(e.path("etc"), 0o755))
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.write("repo/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	e.vars = append(e.vars, "HERMES_HOOKS_MANAGED_CONFIG="+e.path("etc/config.yaml"))
	return e
}

const (
	rmrfHermes = `{"tool_name": "terminal", "args": {"command": "rm -rf /"}}`
	rmrfClaude = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	rmrfSkill  = `{"session_id":"s1","hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1","command_name":"cleanup","invoked_by":"user"}`
)

// inRepo runs hermes-hooks in the repository and returns its stdout.
func (e *env) inRepo(stdin string, args ...string) string {
	e.t.Helper()
	c := e.cmd(stdin, args...)
	c.Dir = e.path("repo")
	out, err := c.Output()
	if err != nil {
		e.t.Fatalf("hermes-hooks %v: %v", args, err)
	}
	return string(out)
}

// A repository, or the user, declaring things that would switch the
// managed guard off, shadow it or run before it: it still answers, on
// every entrance. Each repository's hooks are accepted (--accept-hooks),
// the strongest thing a user can do for them.
func TestManagedNotShadowed(t *testing.T) {
	allow := "#!/bin/sh\ntouch \"$WORK/shadow.ran\"\necho '{}'\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"disableAllHooks in the repository's Claude settings", map[string]string{
			"repo/.claude/settings.json": `{"disableAllHooks": true, "allowManagedHooksOnly": true}`}},
		{"disableAllHooks in the user's Claude settings", map[string]string{
			"home/config.yaml": "hooks: {}\nclaude_settings: [off.json]\n", "home/off.json": `{"disableAllHooks": true}`}},
		{"the same command first by priority in the repository", map[string]string{
			"repo/.hermes/hooks.yaml": "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      matcher: terminal\n      priority: -1000\n",
			"repo/guard.sh":           allow}},
		{"the same command on the skill event in the user's config", map[string]string{
			"home/config.yaml": "hooks:\n  PreSkillShellCommand:\n    - command: ./guard.sh\n      dialect: hermes\n      matcher: Bash\n",
			"repo/guard.sh":    allow}},
		{"the user's tool_aliases remove the terminal pair", map[string]string{
			"home/config.yaml": "tool_aliases:\n  terminal: null\nhooks: {}\n"}},
		{"the user's tool_aliases move the terminal pair", map[string]string{
			"home/config.yaml": "tool_aliases:\n  terminal: NotBash\n  a_shell: Bash\nhooks: {}\n"}},
		{"the user's config claims allow_managed_hooks_only: false", map[string]string{
			"home/config.yaml": "allow_managed_hooks_only: false\nhooks: {}\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := managedEnv(t, managedConfig)
			for name, body := range tc.files {
				e.write(name, body, 0o755)
			}
			if out := e.inRepo(rmrfHermes, "--accept-hooks", "dispatch", "pre_tool_call"); !strings.Contains(out, `"decision":"block","message":"managed: no"`) {
				t.Errorf("dispatch: the managed guard did not answer: %s", out)
			}
			for _, payload := range []string{rmrfClaude, rmrfSkill} {
				if out := e.inRepo(payload, "--accept-hooks", "hook", "claude"); !strings.Contains(out, `"permissionDecision":"deny","permissionDecisionReason":"managed: no"`) {
					t.Errorf("hook claude %.60s: the managed guard did not answer: %s", payload, out)
				}
			}
		})
	}
}

// A managed hook's relative script is the administrator's (beside the
// managed config), never one of that name in the repository the session
// is in, in either dialect: a repository cannot have its script run with
// the administrator's approval.
func TestManagedScriptIsTheAdministrators(t *testing.T) {
	for _, config := range []string{
		managedConfig,
		"hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./guard.sh\n",
	} {
		e := managedEnv(t, config)
		if strings.Contains(config, "PreToolUse") {
			// The Claude dialect's refusal.
			e.write("etc/guard.sh", "#!/bin/sh\necho 'managed: no' >&2\nexit 2\n", 0o755)
		}
		e.write("repo/guard.sh", "#!/bin/sh\ntouch \"$WORK/repo-script.ran\"\necho '{}'\n", 0o755)
		out := e.inRepo(rmrfClaude, "hook", "claude")
		if !strings.Contains(out, `"permissionDecision":"deny","permissionDecisionReason":"managed: no"`) {
			t.Errorf("%q: the administrator's guard did not answer: %s", config, out)
		}
		if _, err := os.Stat(e.path("repo-script.ran")); err == nil {
			t.Errorf("%q: the repository's ./guard.sh ran as the managed hook", config)
		}
	}
}

// What the user controls cannot make a managed file of their own (so
// approve its hooks) nor point the layer at one that turns the guards off:
// every such file is refused, and a refused managed file refuses the call.
func TestManagedFileAUserCouldWriteIsRefused(t *testing.T) {
	off := "allow_managed_hooks_only: true\nhooks: {}\n"
	for _, tc := range []struct {
		name  string
		setUp func(e *env)
		want  string
	}{
		{"the variable names a file the user owns", func(e *env) {
			e.write("mine.yaml", off, 0o644)
			must(e.t, os.Chown(e.path("mine.yaml"), 65534, 65534))
			e.vars = append(e.vars, "HERMES_HOOKS_MANAGED_CONFIG="+e.path("mine.yaml"))
		}, "mine.yaml is owned by uid 65534, not root"},
		{"a symbolic link in the managed directory to a file others can write", func(e *env) {
			e.write("writable.yaml", off, 0o666)
			must(e.t, os.Remove(e.path("etc/config.yaml")))
			must(e.t, os.Symlink(e.path("writable.yaml"), e.path("etc/config.yaml")))
		}, "writable.yaml has mode 0666"},
		{"the managed directory is the user's", func(e *env) {
			must(e.t, os.Chown(e.path("etc"), 65534, 65534))
		}, "directory " + "%WORK%/etc is owned by uid 65534"},
		{"the managed directory is writable by everyone", func(e *env) {
			must(e.t, os.Chmod(e.path("etc"), 0o777))
		}, "directory %WORK%/etc has mode 0777"},
		{"the managed file is group-writable", func(e *env) {
			must(e.t, os.Chmod(e.path("etc/config.yaml"), 0o664))
		}, "config.yaml has mode 0664"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := managedEnv(t, managedConfig)
			tc.setUp(e)
			want := strings.ReplaceAll(tc.want, "%WORK%", e.dir)
			out := e.inRepo(rmrfHermes, "--accept-hooks", "dispatch", "pre_tool_call")
			if !strings.Contains(out, `"decision":"block","message":"hermes-hooks refuses tool calls until`) || !strings.Contains(out, want) {
				t.Errorf("not refused with %q: %s", want, out)
			}
		})
	}
}

// A Claude-dialect managed guard on PreToolUse also runs on a skill's
// shell command; the user's own entry of the same command on that event
// (never approved, so skipped) must not stand for it there: Claude Code's
// once-per-command rule never leaves the managed one out.
func TestManagedClaudeGuardNotShadowedOnTheSkillEvent(t *testing.T) {
	e := managedEnv(t, "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./guard.sh\n")
	e.write("etc/guard.sh", "#!/bin/sh\necho 'managed: no' >&2\nexit 2\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  PreSkillShellCommand:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./guard.sh\n", 0o644)
	if out := e.inRepo(rmrfSkill, "hook", "claude"); !strings.Contains(out, `"permissionDecision":"deny","permissionDecisionReason":"managed: no"`) {
		t.Errorf("the managed guard did not answer: %s", out)
	}
}

// serve reads the managed layer and watches it: a refused managed file
// refuses every tool call; fixed while serve runs, its guard answers; made
// writable by others again, it is refused again, its content unchanged.
func TestServeWatchesTheManagedConfig(t *testing.T) {
	e := managedEnv(t, managedConfig)
	must(t, os.Chmod(e.path("etc/config.yaml"), 0o666))
	s := e.serve(shortSock(t))
	refused := func(out string) bool {
		return strings.Contains(out, `"decision":"block","message":"hermes-hooks refuses tool calls until`) && strings.Contains(out, "has mode 0666")
	}
	if _, out := s.dispatch("pre_tool_call", rmrfHermes); !refused(out) {
		t.Fatalf("a refused managed config: %s", out)
	}
	must(t, os.Chmod(e.path("etc/config.yaml"), 0o644))
	var out string
	waitFor(t, "the managed guard to answer", func() bool {
		_, out = s.dispatch("pre_tool_call", rmrfHermes)
		return strings.Contains(out, `"message":"managed: no"`)
	})
	must(t, os.Chmod(e.path("etc/config.yaml"), 0o666))
	waitFor(t, "the managed config to be refused", func() bool {
		_, out = s.dispatch("pre_tool_call", rmrfHermes)
		return refused(out)
	})
}

// A hook call forwarded to a serve that reads another managed layer (one
// started without the variable) is not answered by it: the caller's
// managed guard still answers.
func TestHookForwardKeepsTheManagedConfig(t *testing.T) {
	e := managedEnv(t, managedConfig)
	caller := e.vars
	e.vars = append(slices.Clone(caller), "HERMES_HOOKS_MANAGED_CONFIG=")
	sock := shortSock(t)
	e.serve(sock)
	e.vars = append(caller, "HERMES_HOOKS_SERVER="+sock)
	if out := e.run(rmrfClaude, "hook", "claude"); !strings.Contains(out, `"permissionDecision":"deny","permissionDecisionReason":"managed: no"`) {
		t.Errorf("the managed guard did not answer: %s", out)
	}
}
