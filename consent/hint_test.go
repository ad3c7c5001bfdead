package consent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// TestShownCommand: a hook's text as a message quotes it is cut and
// escaped whatever a repository wrote in it.
func TestShownCommand(t *testing.T) {
	long := strings.Repeat("A", 100<<10)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain", "./guard.sh", "./guard.sh"},
		{"escape", "./g.sh \x1b[2J", `./g.sh \x1b[2J`},
		{"bidi", "./g.sh \u202e", `./g.sh \u202e`},
		{"newline", "a\nb", `a\nb`},
		{"long", long, strings.Repeat("A", maxShownCommand-3) + "..."},
		{"escape then long", "\x1b[2J" + long, `\x1b[2J` + strings.Repeat("A", maxShownCommand-7) + "..."},
		{"cut keeps characters whole", strings.Repeat("é", 200), strings.Repeat("é", maxShownCommand-3) + "..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ShownCommand(tc.in)
			if got != tc.want {
				t.Fatalf("ShownCommand = %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) || strings.ContainsAny(got, "\x1b\n\r\u202e") {
				t.Fatalf("ShownCommand = %q: not terminal-safe", got)
			}
		})
	}
}

// TestApproveHint: the approve line a message offers works when run: a
// repository's hook is approved with approve --project DIR, never by its
// text; one's own by its text only when it can be pasted back whole.
func TestApproveHint(t *testing.T) {
	repo := Scope{Project: "/src/it's app", Source: "/src/it's app/.hermes/hooks.yaml"}
	long := strings.Repeat("A", maxPastedCommand+1)
	for _, tc := range []struct {
		name, event, command string
		scope                Scope
		want                 string
	}{
		{"own, plain", "pre_tool_call", "~/h.sh", Scope{}, "hermes-hooks approve '~/h.sh' --event pre_tool_call"},
		{"own, quote", "pre_tool_call", "echo 'x'", Scope{}, `hermes-hooks approve 'echo '\''x'\''' --event pre_tool_call`},
		{"own, escape", "pre_tool_call", "./g.sh \x1b[2J", Scope{}, "hermes-hooks list (to review it), then hermes-hooks approve --all (it approves your own hooks not yet approved, never a repository's)"},
		{"own, long", "pre_tool_call", long, Scope{}, "hermes-hooks list (to review it), then hermes-hooks approve --all (it approves your own hooks not yet approved, never a repository's)"},
		{"own, gateway event", "command:*", "./h.sh", Scope{}, "hermes-hooks approve './h.sh' --event 'command:*'"},
		{"own, longest pasted", "pre_tool_call", long[1:], Scope{}, "hermes-hooks approve '" + long[1:] + "' --event pre_tool_call"},
		{"repository, plain", "pre_tool_call", "./g.sh", repo, `hermes-hooks approve --project '/src/it'\''s app'`},
		{"repository, rule", "pre_tool_call", "rule: args.command matches 'rm'", repo, `hermes-hooks approve --project '/src/it'\''s app'`},
		{"repository, escape", "pre_tool_call", "./g.sh \x1b[2J" + long, repo, `hermes-hooks approve --project '/src/it'\''s app'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ApproveHint(tc.event, tc.command, tc.scope); got != tc.want {
				t.Fatalf("ApproveHint = %q, want %q", got, tc.want)
			}
		})
	}
	if got, want := ApproveTextOnlyHintFor("pre_tool_call", "make g", repo), `hermes-hooks approve --project '/src/it'\''s app' --text-only`; got != want {
		t.Fatalf("ApproveTextOnlyHintFor(repository) = %q, want %q", got, want)
	}
	if got, want := ApproveTextOnlyHintFor("pre_tool_call", "make g", Scope{}), "hermes-hooks approve --text-only 'make g' --event pre_tool_call"; got != want {
		t.Fatalf("ApproveTextOnlyHintFor(own) = %q, want %q", got, want)
	}
}

// FuzzShownCommand: whatever a repository writes as a hook's text, what a
// message quotes of it is valid UTF-8, terminal-safe and bounded, and the
// approve line offered for one's own hook either quotes the text exactly
// (when it can be pasted back) or none of it.
func FuzzShownCommand(f *testing.F) {
	for _, s := range []string{"./g.sh", "./g.sh \x1b[2J", "\u202e", "a\xffb", strings.Repeat("é", 300), "it's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		got := ShownCommand(command)
		if !utf8.ValidString(got) || termsafe.Escape(got) != got {
			t.Fatalf("ShownCommand(%q) = %q: not terminal-safe", command, got)
		}
		// An escaped code point takes at most 6 bytes (\uXXXX).
		if len(got) > 6*maxShownCommand {
			t.Fatalf("ShownCommand(%q) is %d bytes", command, len(got))
		}
		hint := ApproveHint("pre_tool_call", command, Scope{})
		if termsafe.Escape(hint) != hint {
			t.Fatalf("ApproveHint(%q) = %q: not terminal-safe", command, hint)
		}
		if pasteable(command) != strings.HasPrefix(hint, "hermes-hooks approve '") {
			t.Fatalf("ApproveHint(%q) = %q (pasteable %v)", command, hint, pasteable(command))
		}
		if repo := ApproveHint("pre_tool_call", command, Scope{Project: "/src/app"}); repo != "hermes-hooks approve --project '/src/app'" {
			t.Fatalf("repository hint %q", repo)
		}
	})
}
