//go:build unix

package repoenv

import (
	"bufio"
	"os"
	"os/user"
	"strconv"
	"strings"
)

// accountHome is the home /etc/passwd gives this process's uid, else the
// one the C library's account lookup (NSS: LDAP and the like) gives where
// hermes-hooks is built to ask it; "" when neither knows the uid. Go's own
// lookup is not asked: user.LookupId answers from user.Current, which
// without cgo is $HOME for a uid the file lacks.
func accountHome() string {
	uid := strconv.Itoa(os.Getuid())
	if h, ok := passwdHome("/etc/passwd", uid); ok {
		return h
	}
	if !libcUsers {
		return ""
	}
	if u, err := user.LookupId(uid); err == nil {
		return u.HomeDir
	}
	return ""
}

// passwdHome is the home field of uid's line in file (name:pw:uid:gid:gecos:home:shell).
func passwdHome(file, uid string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) >= 7 && fields[2] == uid && !strings.HasPrefix(fields[0], "#") {
			return fields[5], fields[5] != ""
		}
	}
	return "", false
}
