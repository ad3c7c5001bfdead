package repoid

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// remoteID is the ID of a remote URL found in the config of the worktree
// rooted at top: "url:" + NormalizeURL for a hosted repository, or, for a
// local one (a path, file://), "git:" + that repository's common git
// directory, so that a local clone and its origin meet. seen is told each
// file of the local one read for it (find's seen): a repository made,
// removed or made a worktree there changes the ID.
func remoteID(u, top string, seen func(string)) string {
	if p, ok := localPath(u); ok {
		if !filepath.IsAbs(p) {
			p = filepath.Join(top, p)
		}
		p = filepath.Clean(p)
		seen(filepath.Join(p, ".git"))
		if gd, ok := gitDirOf(p); ok {
			seen(filepath.Join(gd, "commondir"))
			return "git:" + canonical(commonDirOf(gd))
		}
		for _, name := range bareMarks {
			seen(filepath.Join(p, name))
		}
		if isBare(p) {
			return "git:" + canonical(p)
		}
		return "path:" + p
	}
	if n := NormalizeURL(u); n != "" {
		return "url:" + n
	}
	return ""
}

// bareMarks are what a bare repository has (isBare).
var bareMarks = []string{"HEAD", "objects", "refs"}

// isBare reports whether dir looks like a bare repository (git's own test
// is HEAD plus objects and refs).
func isBare(dir string) bool {
	for _, name := range bareMarks {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

// localPath reports whether u names a repository on this machine, as git
// reads a URL: file://PATH, or a path (a colon only after the first slash,
// as an scp-like address has it before).
func localPath(u string) (string, bool) {
	if rest, ok := strings.CutPrefix(u, "file://"); ok {
		return rest, rest != ""
	}
	if strings.Contains(u, "://") {
		return "", false
	}
	if filepath.VolumeName(u) != "" {
		// C:\src\app on Windows: a path, as Git for Windows reads
		// it, not the scp-like host "C".
		return u, true
	}
	colon := strings.IndexByte(u, ':')
	slash := strings.IndexByte(u, '/')
	if colon >= 0 && (slash < 0 || colon < slash) {
		return "", false
	}
	return u, u != ""
}

// NormalizeURL is the form under which two spellings of one hosted
// repository's address compare equal: "host[:port]/path" with the scheme
// and credentials dropped, the host lower-cased, a default port (ssh 22,
// http 80, https 443, git 9418) dropped, and the path's trailing slashes
// and ".git" dropped. An scp-like address (user@host:owner/repo.git) is
// read as ssh. It returns "" for what is not a remote address (a local
// path, an empty string).
func NormalizeURL(u string) string {
	u = strings.TrimSpace(u)
	var host, path, port string
	switch {
	case strings.Contains(u, "://"):
		p, err := url.Parse(u)
		if err != nil || p.Scheme == "file" || p.Host == "" {
			return ""
		}
		host, port, path = p.Hostname(), p.Port(), p.Path
		if port == defaultPort(strings.ToLower(p.Scheme)) {
			port = ""
		}
	default:
		if _, local := localPath(u); local {
			return ""
		}
		i := strings.IndexByte(u, ':')
		if j := strings.Index(u, "]:"); j >= 0 && strings.IndexByte(u, '[') < j {
			i = j + 1 // [::1]:path
		}
		if i < 0 {
			return ""
		}
		host, path = u[:i], u[i+1:]
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			host = host[at+1:]
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	host = strings.ToLower(host)
	path = strings.Trim(path, "/")
	for {
		trimmed := strings.TrimSuffix(strings.TrimSuffix(path, ".git"), "/")
		if trimmed == path {
			break
		}
		path = trimmed
	}
	path = strings.TrimPrefix(path, "~/")
	if host == "" || path == "" {
		return ""
	}
	if port != "" {
		host += ":" + port
	}
	return host + "/" + path
}

func defaultPort(scheme string) string {
	switch scheme {
	case "ssh", "git+ssh", "ssh+git":
		return "22"
	case "http":
		return "80"
	case "https":
		return "443"
	case "git":
		return "9418"
	}
	return ""
}
