package permrule

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"strings"
)

// File tool rules: gitignore-style path patterns under Claude's anchors.

type pathAnchor uint8

const (
	anchorCwd     pathAnchor = iota // "x", "./x": the working directory
	anchorRoot                      // "//x": the file system root
	anchorHome                      // "~/x": the home directory
	anchorProject                   // "/x": the settings source's root
)

// pathPattern is a file tool's specifier: gitignore pattern syntax under one
// of four anchors (permissions docs, "Read and Edit"): "//x" is the
// absolute path /x, "~/x" is under the home directory, "/x" is under the
// root of the settings source (ProjectDir — NOT the file system root), and
// "x" or "./x" is under the working directory. Under its anchor the pattern
// is gitignore's: * and ? stay within one path segment, [a-z] is a class,
// ** spans directories, a pattern with no slash (other than a trailing one)
// matches at any depth (".env" = "**/.env"), one with a slash is anchored
// ("src/**" is <cwd>/src only — the docs give this reading for `if`, and
// for allow rules, since v2.1.214), a trailing slash matches directories
// only, and a pattern that matches a directory matches everything in it.
// Matching is case-sensitive and nothing is resolved on disk here: the
// dispatcher follows symlinks and matches the path they lead to as well
// (MatchFile), since a guard on secrets/** must not be skipped for a link
// to secrets/key.
type pathPattern struct {
	raw     string
	anchor  pathAnchor
	segs    []string // path.Match patterns, "**" for any number of segments
	dirOnly bool
}

func compilePathPattern(content string) (pathPattern, error) {
	p := pathPattern{raw: content}
	rest := content
	anchored := true
	switch {
	case strings.HasPrefix(rest, "//"):
		p.anchor, rest = anchorRoot, strings.TrimLeft(rest, "/")
	case strings.HasPrefix(rest, "~/"):
		p.anchor, rest = anchorHome, rest[2:]
	case strings.HasPrefix(rest, "/"):
		p.anchor, rest = anchorProject, rest[1:]
	default:
		p.anchor, anchored = anchorCwd, false
		rest = strings.TrimPrefix(rest, "./")
	}
	switch {
	case strings.HasPrefix(rest, "#"):
		return p, errors.New("a path pattern starting with # is a gitignore comment and matches nothing (escape it as \\#)")
	case strings.HasPrefix(rest, "!"):
		return p, errors.New("a negated path pattern (!…) means nothing as a single rule (escape it as \\!)")
	}
	// gitignore: trailing spaces are ignored unless escaped.
	for strings.HasSuffix(rest, " ") && !strings.HasSuffix(rest, `\ `) {
		rest = rest[:len(rest)-1]
	}
	if strings.HasSuffix(rest, "/") {
		p.dirOnly = true
		rest = strings.TrimRight(rest, "/")
	}
	if strings.HasPrefix(rest, "/") {
		anchored, rest = true, strings.TrimLeft(rest, "/")
	}
	if strings.Contains(rest, "/") {
		anchored = true
	}
	for _, s := range strings.Split(rest, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return p, errors.New(`a path pattern cannot climb out of its anchor with ".."; write an absolute //path or ~/path`)
		case "**":
			if len(p.segs) > 0 && p.segs[len(p.segs)-1] == "**" {
				continue
			}
			p.segs = append(p.segs, s)
			continue
		}
		s = strings.ReplaceAll(s, "[!", "[^")
		if _, err := path.Match(s, ""); err != nil {
			return p, fmt.Errorf("bad path pattern segment %q: %v", s, err)
		}
		p.segs = append(p.segs, s)
	}
	if len(p.segs) == 0 {
		return p, errors.New("empty path pattern")
	}
	if !anchored && p.segs[0] != "**" {
		p.segs = append([]string{"**"}, p.segs...)
	}
	return p, nil
}

func (p pathPattern) match(tool string, input map[string]any, ctx RuleContext) (bool, string) {
	file, why := callFile(tool, input, ctx)
	switch {
	case file == "" && why == "":
		return false, "tool_input has no file_path"
	case file == "":
		return true, why
	}
	return p.matchFile(tool, path.Clean(file), ctx)
}

// callFile returns the absolute path a file tool's call names, not
// cleaned: "link/.." is only the link's parent lexically, so a caller
// following symlinks needs the path as written. When it is "", a why says that a directory needed to resolve it is
// unknown (the call then matches, so the hook runs); no why, that the call
// names no file.
func callFile(tool string, input map[string]any, ctx RuleContext) (file, why string) {
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s, ok := input[k].(string); ok && s != "" {
			file = s
			break
		}
	}
	if file == "" {
		if !dirTools()[tool] {
			return "", ""
		}
		file = "." // Glob and Grep search the working directory by default
	}
	switch {
	case file == "~" || strings.HasPrefix(file, "~/"):
		if ctx.Home == "" {
			return "", "the home directory is unknown, so " + file + " cannot be resolved; the hook runs"
		}
		file = ctx.Home + file[1:]
	case !strings.HasPrefix(file, "/"):
		if ctx.Cwd == "" {
			return "", "the working directory is unknown, so " + file + " cannot be resolved; the hook runs"
		}
		file = ctx.Cwd + "/" + file
	}
	return file, ""
}

// CallFile returns the absolute path a file tool's call names, resolved
// against ctx as a path rule resolves it but not cleaned (no file system: a
// caller that follows symlinks does it with this path, ".." after a link
// included, and gives the result to MatchFile). ok is false when the call names no file or a directory it
// needs is unknown.
func CallFile(tool string, input map[string]any, ctx RuleContext) (string, bool) {
	file, _ := callFile(canonicalTool(tool), input, ctx)
	return file, file != ""
}

// IsPathRule reports whether the rule is a file tool's path pattern, the
// rules whose match depends on where a path leads.
func (r IfRule) IsPathRule() bool { return r.kind == rulePath }

// MatchFile matches a path rule against file, an absolute path, as if the
// call had named it: the caller passes the path a call's file leads to once
// symlinks are followed (and, in ctx, the directories the rule is anchored
// at, followed likewise). A rule that is not a path rule for this tool does
// not match.
func (r IfRule) MatchFile(toolName, file string, ctx RuleContext) (bool, string) {
	if r.kind != rulePath || canonicalTool(toolName) != r.tool {
		return false, "not a path rule for " + toolName
	}
	if !strings.HasPrefix(file, "/") {
		return true, file + " is not an absolute path; the hook runs"
	}
	return r.path.matchFile(r.tool, path.Clean(file), ctx)
}

// NamedFile returns the one file a path rule for this tool names when its
// pattern has no wildcard ("Read(./.env)": <cwd>/.env; an unanchored name
// is taken at its anchor), ok false for any other rule or an unknown
// anchor. A caller with a file system compares that file's identity
// (device and inode) with the call's file: a hard link to .env is .env,
// whatever its name.
func (r IfRule) NamedFile(toolName string, ctx RuleContext) (string, bool) {
	p := r.path
	if r.kind != rulePath || canonicalTool(toolName) != r.tool || p.dirOnly {
		return "", false
	}
	segs := p.segs
	if p.anchor == anchorCwd && len(segs) > 1 && segs[0] == "**" {
		segs = segs[1:]
	}
	for _, s := range segs {
		if strings.ContainsAny(s, `*?[\`) {
			return "", false
		}
	}
	root := map[pathAnchor]string{anchorRoot: "/", anchorHome: ctx.Home, anchorProject: cmp.Or(ctx.ProjectDir, ctx.Cwd), anchorCwd: ctx.Cwd}[p.anchor]
	if root == "" {
		return "", false
	}
	return path.Join(append([]string{root}, segs...)...), true
}

func (p pathPattern) matchFile(tool, file string, ctx RuleContext) (bool, string) {
	rule := tool + "(" + p.raw + ")"
	isDir := dirTools()[tool]
	var root string
	switch p.anchor {
	case anchorRoot:
		root = "/"
	case anchorHome:
		root = ctx.Home
	case anchorProject:
		root = ctx.ProjectDir
		if root == "" {
			root = ctx.Cwd
		}
	default:
		root = ctx.Cwd
	}
	if root == "" {
		return true, "the directory " + rule + " is anchored at is unknown; the hook runs"
	}
	root = path.Clean(root)
	var rel string
	switch {
	case root == "/":
		rel = strings.TrimPrefix(file, "/")
	case strings.HasPrefix(file, root+"/"):
		rel = file[len(root)+1:]
	}
	if rel == "" {
		if file == root {
			return false, file + " is the directory " + rule + " is anchored at, not a path under it"
		}
		return false, file + " is not under " + root + ", where " + rule + " is anchored"
	}
	segs := strings.Split(rel, "/")
	matches := prefixMatches(p.segs, segs)
	for n := len(segs); n >= 1; n-- {
		if p.dirOnly && n == len(segs) && !isDir {
			continue
		}
		if matches[n] {
			if n < len(segs) {
				return true, file + " is inside " + path.Join(root, strings.Join(segs[:n], "/")) + ", which matches " + rule
			}
			return true, file + " matches " + rule
		}
	}
	return false, file + " does not match " + rule
}

// prefixMatches reports, for each n from 0 to len(name), whether pat
// matches name[:n]: a segment pattern matches one segment (path.Match), a
// "**" any number of them, at least one when it ends the pattern (a
// trailing /** is everything inside a directory, not the directory). Both
// are hostile (a repository's rule, a model's path), so it walks the
// pattern once over the whole path, keeping which prefixes the pattern so
// far can match: len(pat)×len(name) steps, where trying every split for
// every ** took the path's length to the power of their number.
func prefixMatches(pat, name []string) []bool {
	reach := make([]bool, len(name)+1) // reach[j]: pat[:i] matches name[:j]
	next := make([]bool, len(name)+1)
	reach[0] = true
	for i, seg := range pat {
		clear(next)
		switch {
		case seg == "**":
			// Any number of segments after a reachable prefix (at least
			// one when it is the pattern's last).
			from := 0
			if i == len(pat)-1 {
				from = 1
			}
			seen := false
			for j := range name {
				seen = seen || reach[j]
				if j+from <= len(name) {
					next[j+from] = next[j+from] || seen
				}
			}
			if from == 0 {
				next[len(name)] = next[len(name)] || seen || reach[len(name)]
			}
		default:
			for j := range name {
				if reach[j] {
					next[j+1], _ = path.Match(seg, name[j])
				}
			}
		}
		reach, next = next, reach
	}
	return reach
}
