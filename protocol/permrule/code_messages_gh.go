package permrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ghGroup is what gh's pr and issue read before their subcommand: -R
// and --repo OWNER/REPO (gh pr -R o/r create), which they give every
// subcommand. Before pr or issue (gh -R o/r pr create) nothing is read:
// gh then finds no command at the line's first word, and gh 2.23
// (Debian 12's) looks that word up as an alias or an extension, so that
// after gh alias set --shell -- -R '…' the line would run the words.
var ghGroup = optSpec{args: "R", longArgs: " repo "}

// ghMessageVerbs are gh's pr and issue subcommands that take a title or
// a body (-t/--title, -b/--body), with every flag of theirs: short ones
// without a value (flags), short and long ones with one (args,
// longArgs), long ones without (longFlags), from gh's
// pkg/cmd/{pr,issue}/VERB from 2.23 to 2.60, and -R/--repo. pflag reads
// no abbreviation and no --no-NAME.
var ghMessageVerbs = map[string]optSpec{
	"pr create": {flags: "dewf", args: "tbFBHralpmTR",
		longFlags: " draft editor web fill fill-first fill-verbose no-maintainer-edit dry-run ",
		longArgs:  " title body body-file base head reviewer assignee label project milestone recover template repo "},
	"pr edit": {args: "tbFBmR",
		longFlags: " remove-milestone ",
		longArgs:  " title body body-file base add-reviewer remove-reviewer add-assignee remove-assignee add-label remove-label add-project remove-project milestone repo "},
	"pr comment": {flags: "ew", args: "bFR",
		longFlags: " editor web edit-last ",
		longArgs:  " body body-file repo "},
	"pr review": {flags: "arc", args: "bFR",
		longFlags: " approve request-changes comment ",
		longArgs:  " body body-file repo "},
	"issue create": {flags: "ew", args: "tbFalpmTR",
		longFlags: " editor web ",
		longArgs:  " title body body-file assignee label project milestone recover template repo "},
	"issue edit": {args: "tbFR",
		longFlags: " remove-milestone ",
		longArgs:  " title body body-file add-assignee remove-assignee add-label remove-label add-project remove-project milestone repo "},
	"issue comment": {flags: "ew", args: "bFR",
		longFlags: " editor web edit-last ",
		longArgs:  " body body-file repo "},
}

// ghMessageVerb is the gh pr or issue subcommand of ws (gh's words) that
// takes a title or a body, and the words that name it.
func (c *codeLine) ghMessageVerb(ws []*syntax.Word) (optSpec, int, bool) {
	if len(ws) < 2 || !c.plainWord(ws[0], false) {
		return optSpec{}, 0, false
	}
	group := shellWordOf(ws[0], c.src).text
	if group != "pr" && group != "issue" {
		return optSpec{}, 0, false
	}
	j, ok := c.subcommandAt(ghGroup, ws[1:])
	if !ok {
		return optSpec{}, 0, false
	}
	spec, ok := ghMessageVerbs[group+" "+shellWordOf(ws[1+j], c.src).text]
	return spec, j + 2, ok
}

// ghMessages blanks the values of --title/-t and --body/-b among the
// words of a gh pr or issue subcommand, read as pflag reads them: flags
// anywhere before -- (an operand does not end them), short ones
// clustered (-dt TITLE: -d takes no value), a value attached (-tTITLE,
// -t=TITLE, --title=TITLE) or the next word whatever it holds (-F -t: -t
// is the file). As for git, a word not one word when it runs, or a flag
// not in spec (one of a newer gh), ends the reading.
func (c *codeLine) ghMessages(spec optSpec, ws []*syntax.Word) {
	for i := 0; i < len(ws); i++ {
		t, whole, ok := c.optionWord(ws[i])
		switch {
		case !ok || whole && t == "--" || !whole && len(t) < 2:
			return
		case len(t) < 2 || t[0] != '-': // an operand: the pull request or issue
			continue
		case strings.HasPrefix(t, "--"):
			name, _, attached := strings.Cut(t[2:], "=")
			value := longOption(spec.longArgs, name)
			message := value && (name == "title" || name == "body")
			switch {
			case !attached && !whole || !value && !longOption(spec.longFlags, name):
				return
			case attached && message:
				c.blankRest(ws[i], t[:len(name)+3])
			case value && !attached:
				if i++; !c.ghValue(ws, i, message) {
					return
				}
			}
		default:
			if i, ok = c.ghCluster(spec, ws, i, t, whole); !ok {
				return
			}
		}
	}
}

// ghCluster reads one word of short flags as pflag does (t, the word at
// i; whole false: the word goes on past t, quoted): flags that take no
// value (or an =VALUE after them), then at most one that takes the rest
// of the word or the next word. It returns the last word the cluster
// used, and false where the reading ends.
func (c *codeLine) ghCluster(spec optSpec, ws []*syntax.Word, i int, t string, whole bool) (int, bool) {
	for j := 1; j < len(t); j++ {
		l, attached := t[j], j+1 < len(t) || !whole
		switch {
		case strings.IndexByte(spec.args, l) >= 0 && attached:
			if l == 't' || l == 'b' {
				c.blankRest(ws[i], t[:j+1])
			}
			return i, true
		case strings.IndexByte(spec.args, l) >= 0:
			return i + 1, c.ghValue(ws, i+1, l == 't' || l == 'b')
		case strings.IndexByte(spec.flags, l) < 0:
			return i, false
		case j+1 < len(t) && t[j+1] == '=': // -d=false
			return i, true
		}
	}
	return i, whole
}

// ghValue reads the word at i, a flag's value, blanked when it is a
// title or a body; false when it is not one word when it runs.
func (c *codeLine) ghValue(ws []*syntax.Word, i int, message bool) bool {
	if i >= len(ws) || !fixed(ws[i]) {
		return false
	}
	if message {
		c.blankRest(ws[i], "")
	}
	return true
}
