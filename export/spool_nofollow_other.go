//go:build !unix

package export

// noFollow: no O_NOFOLLOW here; openDropped's after-open comparison
// refuses a link (making a link needs a privilege on Windows).
const noFollow = 0
