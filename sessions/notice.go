package sessions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// maxNoticeID bounds the session id FirstNotice keeps: a longer one (a
// payload's id is the agent's, up to the payload's own bound) is kept as
// its digest, so a hostile id cannot make every call write megabytes.
const maxNoticeID = 1024

// FirstNotice marks the session as one whose person was told that the
// repository's hooks are not approved, and reports whether this call was
// the first to do so: the notice is shown at most once per session, even
// when the agent fires several events of it at once (the test and the mark
// are one Update). An empty id (a payload without a session) is always
// first: nothing ties two calls together then. A store that cannot be
// updated makes no first either (err), so a stuck lock costs the notice,
// not a second copy of it.
func FirstNotice(ctx context.Context, s Store, id string) (bool, error) {
	if id == "" {
		return true, nil
	}
	if len(id) > maxNoticeID {
		sum := sha256.Sum256([]byte(id))
		id = "sha256:" + hex.EncodeToString(sum[:])
	}
	first := false
	mark := func(sess *Session) error {
		first = !sess.Noticed
		sess.Noticed = true
		return nil
	}
	var err error
	if sc, ok := s.(StoreContext); ok {
		err = sc.UpdateContext(ctx, id, mark)
	} else {
		err = s.Update(id, mark)
	}
	return first && err == nil, err
}
