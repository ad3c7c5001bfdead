package permrule

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The messages Code blanks: git commit's and git tag's, and the titles
// and bodies of gh's pull request and issue verbs. Neither program runs
// them; what Code must get right is which word is the message, so that
// an option's value or an operand is never taken for one, and a word it
// cannot read as git would (an expansion, a glob, an option it does not
// know) ends the reading there.

// messages blanks the message of git commit and git tag and of gh's
// pull request and issue verbs; false: not one of them (its
// here-document is not data).
func (c *codeLine) messages(prog string, ws []*syntax.Word) bool {
	switch {
	case prog == "git":
		i, ok := c.gitVerbAt(ws)
		if !ok {
			return false
		}
		spec, ok := gitMessageVerbs[shellWordOf(ws[i], c.src).text]
		if ok {
			c.gitMessages(spec, ws[i+1:])
		}
		return ok
	case prog == "gh" && len(ws) > 1 && (ws[0].Lit() == "pr" || ws[0].Lit() == "issue") && ghVerb(ws[1].Lit()):
		c.ghMessages(ws[2:])
		return true
	}
	return false
}

func ghVerb(s string) bool {
	return s == "create" || s == "edit" || s == "comment" || s == "review"
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

// gitMessageVerbs are git's commands whose -m/--message is a message,
// with their other options (git commit -h, git tag -h), so that
// gitMessages knows which words are their values.
var gitMessageVerbs = map[string]optSpec{
	"commit": {flags: "qvaiponzse", args: "FcCt", optional: "uS",
		longFlags: " quiet verbose reset-author signoff edit status all include interactive patch only no-verify dry-run short branch ahead-behind porcelain long null amend no-post-rewrite pathspec-file-nul allow-empty allow-empty-message gpg-sign untracked-files ",
		longArgs:  " file author date reedit-message reuse-message fixup squash trailer template cleanup pathspec-from-file "},
	"tag": {flags: "ldvaesfi", args: "Fu", optional: "n",
		longFlags: " list delete verify annotate edit sign force create-reflog ignore-case column color ",
		longArgs:  " file local-user cleanup contains no-contains merged no-merged sort points-at format trailer "},
}

// gitMessages blanks each -m/--message value among a git command's
// words, read as git's parse-options reads them: options anywhere before
// -- (an operand does not end them), short ones clustered (-am, -sm),
// a value attached (-mMSG, --message=MSG) or the next word whatever it
// holds (-F -m: -m is the file). A word that is not one word when it
// runs (an unquoted expansion, a glob, braces), whose value is only
// known then, or an option not in spec (an abbreviation, one of a newer
// git) ends the reading: which word is the message past it cannot be
// told.
func (c *codeLine) gitMessages(spec optSpec, ws []*syntax.Word) {
	for i := 0; i < len(ws); i++ {
		t, whole, ok := c.optionWord(ws[i])
		switch {
		case !ok || t == "--" || t == "--end-of-options" || !whole && len(t) < 2:
			return
		case len(t) < 2 || t[0] != '-':
			continue // an operand: a pathspec, a tag's name
		case strings.HasPrefix(t, "--"):
			name, _, attached := strings.Cut(t[2:], "=")
			switch {
			case !attached && !whole: // the name runs on into the quoted rest
				return
			case name == "message" && attached:
				c.blankRest(ws[i], "--message=")
			case name == "message" || longOption(spec.longArgs, name) && !attached:
				if i++; !c.value(ws, i, name == "message") {
					return
				}
			case !longOption(spec.longArgs, name) && !longOption(spec.longFlags, name) && !negated(spec, name):
				return
			}
		default:
			if i, ok = c.gitCluster(spec, ws, i, t, whole); !ok {
				return
			}
		}
	}
}

// gitCluster reads one word of short options (t, the word at i; whole
// false: the word goes on past t, quoted): flags, then at most one that
// takes the rest of the word or the next word as its value. It returns
// the last word the cluster used, and false where the reading ends: a
// letter not in spec, or a next word out of place.
func (c *codeLine) gitCluster(spec optSpec, ws []*syntax.Word, i int, t string, whole bool) (int, bool) {
	for j := 1; j < len(t); j++ {
		l, attached := t[j], j+1 < len(t) || !whole
		switch {
		case l == 'm' && attached:
			c.blankRest(ws[i], t[:j+1])
			return i, true
		case l == 'm' || strings.IndexByte(spec.args, l) >= 0 && !attached:
			return i + 1, c.value(ws, i+1, l == 'm')
		case strings.IndexByte(spec.args, l) >= 0 || strings.IndexByte(spec.optional, l) >= 0:
			return i, true
		case strings.IndexByte(spec.flags, l) < 0:
			return i, false
		}
	}
	return i, whole
}

// value reads the word at i, an option's value: blanked when it is the
// message; false when it is not one word when it runs, so that the words
// after it would be read out of place.
func (c *codeLine) value(ws []*syntax.Word, i int, message bool) bool {
	if i >= len(ws) || !fixed(ws[i]) {
		return false
	}
	if message {
		c.blankRest(ws[i], "")
	}
	return true
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

// ghMessages blanks the values of --title/-t and --body/-b among the
// words of a gh pull request or issue verb, given as the next word, after
// = or attached (-b"…", as pflag reads it), up to --. gh runs none of its
// words: one misread here (another flag's value) is data either way.
func (c *codeLine) ghMessages(ws []*syntax.Word) {
	for i := 0; i < len(ws); i++ {
		t, whole, ok := c.optionWord(ws[i])
		switch {
		case !ok:
			continue
		case t == "--" && whole:
			return
		case whole && (t == "-t" || t == "--title" || t == "-b" || t == "--body"):
			if i+1 < len(ws) {
				i++
				c.blankRest(ws[i], "")
			}
		case strings.HasPrefix(t, "--title=") || strings.HasPrefix(t, "--body="):
			c.blankRest(ws[i], t[:strings.IndexByte(t, '=')+1])
		case strings.HasPrefix(t, "-t") || strings.HasPrefix(t, "-b"):
			c.blankRest(ws[i], t[:2])
		}
	}
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
