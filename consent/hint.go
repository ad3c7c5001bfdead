package consent

import (
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// The text of a hook (its command, a rule's source, an endpoint's label)
// is quoted by the refusals and warnings that reach the agent, the model,
// the journal and a terminal; a repository wrote it. ShownCommand is how
// it is quoted there, and ApproveHint is the command those messages offer,
// one that works when the person runs it: never text that cannot be pasted
// back whole.

// maxShownCommand is how many code points of a hook's text a refusal or a
// warning quotes: enough to recognise a command, not enough for a
// repository to fill an agent's context or a terminal with it.
const maxShownCommand = 120

// maxPastedCommand is the longest text an approve line offers to paste.
const maxPastedCommand = 256

// ShownCommand is a hook's text as a message quotes it: cut to
// maxShownCommand code points, then escaped for a terminal (termsafe), so
// that an escape sequence in it is seen, not acted on.
func ShownCommand(command string) string {
	return termsafe.Escape(textutil.Truncate(command, maxShownCommand))
}

// pasteable reports whether an approve line may offer command to paste:
// short, and printed as itself (termsafe would change nothing), so that
// what the person copies is what was configured.
func pasteable(command string) bool {
	return len(command) <= maxPastedCommand && termsafe.Escape(command) == command
}

// ProjectApproveHint is the command that reviews and approves a
// repository's hooks, for the project at dir: every hook it declares is
// listed whole (with the files it runs) before anything is approved, so no
// message needs to quote a repository's text for the person to paste.
func ProjectApproveHint(project string) string {
	return "hermes-hooks approve --project " + shquote.Quote(project)
}

// ApproveHint is the command a message offers to approve the hook (event,
// command) of scope: approve --project DIR for a repository's hook (the
// same line doctor, validate and dispatch give); for one's own hook,
// approve 'COMMAND' --event E when the command can be pasted back whole
// (pasteable), else approve --all after reviewing it in list, which needs
// no text pasted. It says what --all approves: the person's own hooks not
// yet approved, never a repository's (those only approve --project
// approves, after showing its plan), so following it approves nothing a
// repository put there unseen.
func ApproveHint(event, command string, scope Scope) string {
	return approveHint(event, command, scope, "")
}

// ApproveTextOnlyHintFor is ApproveHint for a fail_closed guard approved
// by its text only, knowingly (ApproveTextOnlyHint).
func ApproveTextOnlyHintFor(event, command string, scope Scope) string {
	return approveHint(event, command, scope, " --text-only")
}

// approveHint is ApproveHint with flag ("" or " --text-only") in each
// line it may offer.
func approveHint(event, command string, scope Scope, flag string) string {
	switch {
	case !scope.Global() && scope.Bundle == "":
		return ProjectApproveHint(scope.Project) + flag
	case pasteable(command):
		return commandHint(event, command, flag)
	}
	return "hermes-hooks list (to review it), then hermes-hooks approve --all" + flag + " (it approves your own hooks not yet approved, never a repository's)"
}

// commandHint is the approve line for (event, command), flag after the
// verb, the command quoted for a POSIX shell.
func commandHint(event, command, flag string) string {
	return "hermes-hooks approve" + flag + " " + shquote.Quote(command) + " --event " + shquote.IfNeeded(event)
}
