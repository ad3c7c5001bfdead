package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// printService prints a service definition that starts `serve --user` at
// login and restarts it when it fails: a systemd user unit or a launchd
// LaunchAgent, running this very binary (its resolved path). HERMES_HOME
// is carried over when it is set, so the service reads the same config,
// allowlist and socket as the hooks the agents run; so is PATH, because
// the hooks inherit the server's environment and a service starts with a
// minimal one (a guard that needs jq from ~/.local/bin or Homebrew would
// fail under the service but not in the agent).
func printService(a *app, kind string) error {
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return fmt.Errorf("cannot tell where this binary is: %w", err)
	}
	var env [][2]string
	for _, k := range []string{"HERMES_HOME", "PATH"} {
		if v := os.Getenv(k); v != "" {
			env = append(env, [2]string{k, v})
		}
	}
	switch kind {
	case "systemd":
		_, err = fmt.Fprint(a.Out, systemdUnit(bin, env))
	case "launchd":
		_, err = fmt.Fprint(a.Out, launchdPlist(bin, env))
	default:
		return usageErr("use --print-service systemd or --print-service launchd", "unknown --print-service %q", kind)
	}
	return err
}

// systemdUnit is a user unit (~/.config/systemd/user/hermes-hooks.service).
// Arguments are double-quoted with systemd's escapes, so a path with
// spaces, quotes, backslashes, or % and $ (systemd's own specifiers and
// variables) stays one literal argument.
func systemdUnit(bin string, env [][2]string) string {
	var b strings.Builder
	b.WriteString("[Unit]\nDescription=hermes-hooks: one hook dispatcher for all your projects\n\n[Service]\nType=simple\n")
	for _, kv := range env {
		b.WriteString("Environment=" + systemdQuote(kv[0]+"="+kv[1]) + "\n")
	}
	b.WriteString("ExecStart=" + systemdQuote(bin) + " serve --user\nRestart=on-failure\nRestartSec=2\n\n[Install]\nWantedBy=default.target\n")
	return b.String()
}

func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$", "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// launchdPlist is a LaunchAgent (~/Library/LaunchAgents/
// dev.hermes-hooks.serve.plist): started at login, kept alive, its log in
// ~/Library/Logs is left to --log-file by whoever wants one.
func launchdPlist(bin string, env [][2]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>dev.hermes-hooks.serve</string>
  <key>ProgramArguments</key>
  <array>
    <string>` + xmlText(bin) + `</string>
    <string>serve</string>
    <string>--user</string>
  </array>
`)
	if len(env) > 0 {
		b.WriteString("  <key>EnvironmentVariables</key>\n  <dict>\n")
		for _, kv := range env {
			b.WriteString("    <key>" + kv[0] + "</key>\n    <string>" + xmlText(kv[1]) + "</string>\n")
		}
		b.WriteString("  </dict>\n")
	}
	b.WriteString(`  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
</dict>
</plist>
`)
	return b.String()
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
