package permrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The messages Code blanks: those of git commit, tag, merge, stash push
// and save, and notes add and append, and the titles and bodies of gh's
// pull request and issue verbs (code_messages_gh.go). Neither program
// runs them; what Code must get right is which word is the message, so
// that an option's value or an operand is never taken for one, and a
// word it cannot read as git would (an expansion, a glob, an option it
// does not know) ends the reading there.

// messages blanks the message of git's and gh's commands that take one;
// false: not one of them, or one whose message a program the line names
// could read (its here-document is not data either).
func (c *codeLine) messages(prog string, ws []*syntax.Word) bool {
	switch prog {
	case "git":
		i, ok := c.gitVerbAt(ws)
		if !ok {
			return false
		}
		verb, n, ok := c.gitMessageVerb(ws[i:])
		return ok && c.gitMessages(verb, ws[i+n:])
	case "gh":
		spec, n, ok := c.ghMessageVerb(ws)
		if ok {
			c.ghMessages(spec, ws[n:])
		}
		return ok
	}
	return false
}

// gitVerbAt is where git's command is among its words, past the options
// before it that change neither what it runs nor who hears of the
// message: -C DIR (a directory, as cd would be) and -c KEY=VALUE for the
// settings of dataSetting. Any other option (-c core.hooksPath=…,
// --exec-path, --config-env …) could choose a program that reads the
// message — a hook, a signing program — so the line is not read.
func (c *codeLine) gitVerbAt(ws []*syntax.Word) (int, bool) {
	for i := 0; i < len(ws); i++ {
		w := shellWordOf(ws[i], c.src)
		if !w.static || w.odd || !fixed(ws[i]) {
			return 0, false
		}
		switch w.text {
		case "-C", "-c":
			if i+1 == len(ws) || !fixed(ws[i+1]) {
				return 0, false
			}
			v := shellWordOf(ws[i+1], c.src)
			if !v.static || v.odd || w.text == "-c" && !dataSetting(v.text) {
				return 0, false
			}
			i++
		default:
			return i, !strings.HasPrefix(w.text, "-")
		}
	}
	return 0, false
}

// dataSetting: a git setting that runs nothing — who the commit is by,
// signing or hooks switched off. Its key's section and name are read
// without case, as git reads them.
func dataSetting(s string) bool {
	key, value, _ := strings.Cut(s, "=")
	switch strings.ToLower(key) {
	case "user.name", "user.email", "author.name", "author.email", "committer.name", "committer.email":
		return true
	case "commit.gpgsign", "tag.gpgsign":
		return value == "false"
	case "core.hookspath":
		return value == "/dev/null"
	}
	return false
}

// gitMessageVerb is the git command at ws[0] when it takes a message,
// and how many words name it: one (commit), or for the commands whose
// subcommand does (stash push, notes --ref REF add) up to its
// subcommand, past the options gitGroups lets stand before it.
func (c *codeLine) gitMessageVerb(ws []*syntax.Word) (gitVerb, int, bool) {
	name := shellWordOf(ws[0], c.src).text
	n := 1
	if before, ok := gitGroups[name]; ok {
		j, ok := c.subcommandAt(before, ws[1:])
		if !ok {
			return gitVerb{}, 0, false
		}
		name += " " + shellWordOf(ws[1+j], c.src).text
		n += j + 1
	}
	verb, ok := gitMessageVerbs[name]
	return verb, n, ok
}

// gitGroups are git's commands whose message is taken by a subcommand,
// with the options each reads before it (git notes -h: --ref REF; git
// stash: none).
var gitGroups = map[string]optSpec{
	"stash": {},
	"notes": {longArgs: " ref "},
}

// subcommandAt is where the subcommand is among a command's words (ws:
// those after the command), past the options before it that spec lists,
// each with its value attached (--ref=REF, -Ro/r) or as the next word
// (--ref REF, -R o/r), a plain word that begins with no "-". Anything
// else (another option, a word only known when it runs) and false: the
// subcommand cannot be told.
func (c *codeLine) subcommandAt(spec optSpec, ws []*syntax.Word) (int, bool) {
	for i := 0; i < len(ws); i++ {
		if !c.plainWord(ws[i], false) {
			return 0, false
		}
		t := shellWordOf(ws[i], c.src).text
		switch {
		case !strings.HasPrefix(t, "-"):
			return i, true
		case strings.HasPrefix(t, "--"):
			name, _, attached := strings.Cut(t[2:], "=")
			if !longOption(spec.longArgs, name) {
				return 0, false
			}
			if !attached {
				if i++; i == len(ws) || !c.plainWord(ws[i], true) {
					return 0, false
				}
			}
		case len(t) > 1 && strings.IndexByte(spec.args, t[1]) >= 0:
			if len(t) == 2 {
				if i++; i == len(ws) || !c.plainWord(ws[i], true) {
					return 0, false
				}
			}
		default:
			return 0, false
		}
	}
	return 0, false
}

// plainWord: one word when it runs, known now; value: and not one that
// begins with "-" (an option's value that another reader of the line
// could take for an option).
func (c *codeLine) plainWord(w *syntax.Word, value bool) bool {
	sw := shellWordOf(w, c.src)
	return fixed(w) && sw.static && !sw.odd && !(value && strings.HasPrefix(sw.text, "-"))
}

// gitVerb is how one git command takes its message: -m/--message, with
// its other options (git CMD -h, and builtin/CMD.c for the options of a
// newer git), so that gitMessages knows which words are their values.
type gitVerb struct {
	optSpec
	// operands: the words that are no option are the message too (git
	// stash save joins them into it).
	operands bool
	// programs: the options ("s", "strategy") whose value names a
	// program git runs, with the values (" ort … ") that name git's own.
	// git merge -s NAME runs git-merge-NAME from PATH when NAME is not
	// one of git's strategies, and a program git runs can read the
	// message on git's command line.
	programs map[string]string
}

// mergeStrategies are git merge's own strategies (builtin/merge.c,
// all_strategy).
const mergeStrategies = " ort recursive resolve octopus ours subtree "

// gitMessageVerbs are git's commands whose -m/--message is a message.
// cherry-pick and revert are not: their -m is the mainline parent's
// number.
var gitMessageVerbs = map[string]gitVerb{
	"commit": {optSpec: optSpec{flags: "qvaiponzse", args: "FcCt", optional: "uS",
		longFlags: " quiet verbose reset-author signoff edit status all include interactive patch only no-verify dry-run short branch ahead-behind porcelain long null amend no-post-rewrite pathspec-file-nul allow-empty allow-empty-message gpg-sign untracked-files ",
		longArgs:  " file author date reedit-message reuse-message fixup squash trailer template cleanup pathspec-from-file "}},
	"tag": {optSpec: optSpec{flags: "ldvaesfi", args: "Fu", optional: "n",
		longFlags: " list delete verify annotate edit sign force create-reflog ignore-case column color ",
		longArgs:  " file local-user cleanup contains no-contains merged no-merged sort points-at format trailer "}},
	"merge": {optSpec: optSpec{flags: "neqv", args: "sXF", optional: "S",
		longFlags: " stat summary compact-summary log squash commit edit ff ff-only rerere-autoupdate verify-signatures verbose quiet abort quit continue allow-unrelated-histories progress gpg-sign autostash overwrite-ignore signoff no-verify ",
		longArgs:  " cleanup strategy strategy-option file into-name "},
		programs: map[string]string{"s": mergeStrategies, "strategy": mergeStrategies}},
	"stash push": {optSpec: optSpec{flags: "kSpqua", args: "U",
		longFlags: " keep-index staged patch auto-advance quiet include-untracked all pathspec-file-nul ",
		longArgs:  " unified inter-hunk-context pathspec-from-file "}},
	"stash save": {optSpec: optSpec{flags: "kSpqua", args: "U",
		longFlags: " keep-index staged patch auto-advance quiet include-untracked all ",
		longArgs:  " unified inter-hunk-context "}, operands: true},
	"notes add": {optSpec: optSpec{flags: "ef", args: "FcC",
		longFlags: " edit allow-empty force separator stripspace ",
		longArgs:  " file reedit-message reuse-message "}},
	"notes append": {optSpec: optSpec{flags: "e", args: "FcC",
		longFlags: " edit allow-empty separator stripspace ",
		longArgs:  " file reedit-message reuse-message "}},
}

// gitReading is one reading of a git command's words: the messages it
// found, blanked once the reading is through, and whether a word named a
// program that is not git's own, which leaves them all whole.
type gitReading struct {
	*codeLine
	verb    gitVerb
	ws      []*syntax.Word
	marks   []gitMark
	foreign bool
}

// gitMark is a message: the word, and the option written before it in
// the same word (-m, --message=; "" for a word that is all message).
type gitMark struct {
	w      *syntax.Word
	prefix string
}

// gitMessages blanks each -m/--message value among a git command's
// words, read as git's parse-options reads them: options anywhere before
// -- (an operand does not end them), short ones clustered (-am, -sm),
// a value attached (-mMSG, --message=MSG) or the next word whatever it
// holds (-F -m: -m is the file). A word that is not one word when it
// runs (an unquoted expansion, a glob, braces), whose value is only
// known then, or an option not in the verb's table (an abbreviation, one
// of a newer git) ends the reading: which word is the message past it
// cannot be told. False: a word named a program not git's own.
func (c *codeLine) gitMessages(verb gitVerb, ws []*syntax.Word) bool {
	r := &gitReading{codeLine: c, verb: verb, ws: ws}
	if through := r.read(); r.foreign || !through && len(verb.programs) > 0 {
		return false // a program the line names, or may name past the reading's end
	}
	for _, m := range r.marks {
		c.blankRest(m.w, m.prefix)
	}
	return true
}

// read reads the words; true: to their end, or to the -- after which
// every word is an operand.
func (r *gitReading) read() bool {
	for i := 0; i < len(r.ws); i++ {
		t, whole, ok := r.optionWord(r.ws[i])
		more := true
		switch {
		case ok && whole && (t == "--" || t == "--end-of-options"):
			return true // past it, operands (git stash save's, its message, are left whole)
		case !ok || !whole && len(t) < 2:
			return false
		case len(t) < 2 || t[0] != '-': // an operand: a pathspec, a tag's name
			if r.verb.operands {
				r.marks = append(r.marks, gitMark{r.ws[i], ""})
			}
		case strings.HasPrefix(t, "--"):
			i, more = r.long(i, t[2:], whole)
		default:
			i, more = r.cluster(i, t, whole)
		}
		if !more {
			return false
		}
	}
	return true
}

// long reads the long option at i (s: its text past --; whole false:
// the word goes on past s, quoted). It returns the last word the option
// used, and false where the reading ends.
func (r *gitReading) long(i int, s string, whole bool) (int, bool) {
	name, value, attached := strings.Cut(s, "=")
	spec := r.verb.optSpec
	switch {
	case !attached && !whole: // the name runs on into the quoted rest
		return i, false
	case name == "message" && attached:
		r.marks = append(r.marks, gitMark{r.ws[i], "--message="})
	case name == "message" || longOption(spec.longArgs, name) && !attached:
		return i + 1, r.value(i+1, name)
	case longOption(spec.longArgs, name):
		r.named(name, value, whole)
	case !longOption(spec.longFlags, name) && !negated(spec, name):
		return i, false
	}
	return i, true
}

// cluster reads one word of short options (t, the word at i; whole
// false: the word goes on past t, quoted): flags, then at most one that
// takes the rest of the word or the next word as its value. It returns
// the last word the cluster used, and false where the reading ends: a
// letter not in the table, or a next word out of place.
func (r *gitReading) cluster(i int, t string, whole bool) (int, bool) {
	spec := r.verb.optSpec
	for j := 1; j < len(t); j++ {
		l, attached := t[j], j+1 < len(t) || !whole
		switch {
		case l == 'm' && attached:
			r.marks = append(r.marks, gitMark{r.ws[i], t[:j+1]})
			return i, true
		case l == 'm' || strings.IndexByte(spec.args, l) >= 0 && !attached:
			return i + 1, r.value(i+1, t[j:j+1])
		case strings.IndexByte(spec.args, l) >= 0:
			r.named(t[j:j+1], t[j+1:], whole)
			return i, true
		case strings.IndexByte(spec.optional, l) >= 0:
			return i, true
		case strings.IndexByte(spec.flags, l) < 0:
			return i, false
		}
	}
	return i, whole
}

// value reads the word at i, the value of the option name ("m",
// "message", "s" …): a message, or a value checked by named; false when
// it is not one word when it runs, so that the words after it would be
// read out of place.
func (r *gitReading) value(i int, name string) bool {
	if i >= len(r.ws) || !fixed(r.ws[i]) {
		return false
	}
	if name == "m" || name == "message" {
		r.marks = append(r.marks, gitMark{r.ws[i], ""})
		return true
	}
	w := shellWordOf(r.ws[i], r.src)
	r.named(name, w.text, w.static && !w.odd)
	return true
}

// named checks the value of an option that names a program (known
// false: only known when the line runs): one not among git's own makes
// the reading foreign.
func (r *gitReading) named(name, value string, known bool) {
	if own, ok := r.verb.programs[name]; ok && (!known || !longOption(own, value)) {
		r.foreign = true
	}
}

// optionWord is a word as an option reads it: its value, when it is one
// word and static; or, for a word whose plain literal beginning is
// followed by quoted text only known when it runs (-m"$(…)",
// --message="$(…)"), that beginning, whole false: the quoted rest can only
// be part of the last option's value or name.
func (c *codeLine) optionWord(w *syntax.Word) (t string, whole, ok bool) {
	if !fixed(w) {
		return "", false, false
	}
	if sw := shellWordOf(w, c.src); sw.static || sw.odd {
		return sw.text, true, !sw.odd
	}
	lit, _ := w.Parts[0].(*syntax.Lit)
	if lit == nil || strings.Contains(lit.Value, `\`) {
		return "", false, false
	}
	return lit.Value, false, true
}

// fixed: the word is one word when it runs — literal text and quotes
// only, no expansion outside quotes to be split and no *, ?, [ or {
// outside quotes to be globbed or brace-expanded (any one, paired or not:
// braces may pair across quotes, {-F,'-m'}).
func fixed(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "*?[{") {
				return false
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
		default:
			return false
		}
	}
	return true
}

func longOption(list, name string) bool {
	return name != "" && strings.Contains(list, " "+name+" ")
}

// negated: --no-NAME for an option NAME, or --NAME for an option
// no-NAME (--verify), which parse-options accepts and which take no
// value.
func negated(spec optSpec, name string) bool {
	if rest, ok := strings.CutPrefix(name, "no-"); ok {
		return rest == "message" || longOption(spec.longFlags, rest) || longOption(spec.longArgs, rest)
	}
	return longOption(spec.longFlags, "no-"+name)
}

// blankRest blanks a literal word past its option as written (prefix: -m,
// --message=; "" for a word that is all value). A word whose source does
// not begin with the option as its value does ("-m"x, -\m) is left whole:
// where its value starts in the source is not the option's length.
func (c *codeLine) blankRest(w *syntax.Word, prefix string) {
	from, to := uint(w.Pos().Offset()), uint(w.End().Offset())
	if !literalWord(w, true) || to > uint(len(c.src)) || from > to || !strings.HasPrefix(c.src[from:to], prefix) {
		return
	}
	c.blank(from+uint(len(prefix)), to, true)
}
