package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// payloadBudget bounds the request bodies a server holds at once: the bytes
// being read and those of the payloads being dispatched, until each reply
// is written. A body's decoded form can be tens of times its size (an
// array of 4 million numbers is 8 MB on the wire and about 300 MB as
// values), and bodies are read before a dispatch slot is taken, so without
// this bound every open connection (--max-conns) could hold a full
// --max-body-bytes payload at once: 16 clients made serve take 4.6 GB.
type payloadBudget struct {
	mu   sync.Mutex
	free int64
	// freed is closed (and replaced) whenever bytes are returned, waking
	// every waiter to look again.
	freed chan struct{}
}

// payloadBudgetFor is the budget for bodies of at most limit bytes: two
// of the largest, so a large payload never waits for more than one other,
// and any number of everyday ones (a few KB) pass side by side.
func payloadBudgetFor(limit int64) int64 {
	return 2 * (limit + 1)
}

func newPayloadBudget(total int64) *payloadBudget {
	return &payloadBudget{free: total, freed: make(chan struct{})}
}

// acquire takes n bytes, waiting until they are free, at most patience,
// or until ctx ends (false: nothing was taken). The timer starts only when
// it must wait: a free budget costs a dispatch no timer.
func (b *payloadBudget) acquire(ctx context.Context, n int64, patience time.Duration) bool {
	var timeout <-chan time.Time
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return true
		}
		wait := b.freed
		b.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(patience)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-wait:
		case <-timeout:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (b *payloadBudget) release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	close(b.freed)
	b.freed = make(chan struct{})
	b.mu.Unlock()
}

// errBudget: the body's bytes could not be reserved in time.
var errBudget = errors.New("too many request bytes in flight")

// readBudgeted reads r (at most limit bytes: more is a read error of r's
// own, http.MaxBytesReader's) reserving its bytes from b as they arrive:
// all of a declared length at once, else in growing steps. It returns the
// bytes reserved, which the caller releases when it no longer holds the
// payload (also on error): once the body has ended, its size, so that a
// body without a declared length (chunked, or none) holds what one with
// it would. The wait for a reservation ends after patience, or with ctx.
func readBudgeted(ctx context.Context, b *payloadBudget, r io.Reader, declared, limit int64, patience time.Duration) (data []byte, held int64, err error) {
	for {
		if int64(len(data)) == held {
			// The first step is the declared length (a few bytes more
			// only show the end of a body that has one), else 64 KiB
			// doubling, never past limit+1: what tells a body too large.
			n := max(64<<10, held)
			switch {
			case declared > 0 && held == 0:
				n = declared
			case declared > 0:
				n = 512
			}
			n = max(min(n, limit+1-held), 1)
			if !b.acquire(ctx, n, patience) {
				return nil, held, errBudget
			}
			held += n
			if int64(cap(data)) < held {
				data = append(make([]byte, 0, held), data...)
			}
		}
		k, rerr := r.Read(data[len(data):held])
		data = data[:len(data)+k]
		if rerr == io.EOF {
			b.release(held - int64(len(data)))
			return data, int64(len(data)), nil
		}
		if rerr != nil {
			return nil, held, rerr
		}
	}
}

// readFields reads the body: one JSON object, or nothing (an event without
// fields). A non-zero status is the error reply to send.
func (s *Server) readFields(w http.ResponseWriter, r *http.Request, heldp *int64) (map[string]any, int, apiError) {
	limit := s.opts.MaxBodyBytes
	tooLarge := apiError{Error: "request body is larger than " + strconv.FormatInt(limit, 10) + " bytes", Limit: limit}
	if r.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, tooLarge
	}
	// The body must arrive within BodyTimeout: a client that sends the
	// headers and then dribbles (or never sends) the body must not hold a
	// connection and a dispatch slot for ever.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.opts.BodyTimeout))
	// The bytes are reserved from the payload budget as they arrive, and
	// held until the reply is written (req.held): the payload's decoded
	// form lives that long.
	data, held, err := readBudgeted(r.Context(), s.payloads, http.MaxBytesReader(w, r.Body, limit), r.ContentLength, limit, s.opts.QueueWait)
	*heldp = held
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, http.StatusRequestEntityTooLarge, tooLarge
		case errors.Is(err, errBudget):
			w.Header().Set("Retry-After", "1")
			return nil, http.StatusServiceUnavailable, apiError{Error: err.Error() + " (request bodies being read or dispatched)", RetryAfter: 1}
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, http.StatusRequestTimeout, apiError{Error: "the request body did not arrive within " + s.opts.BodyTimeout.String()}
		}
		return nil, http.StatusBadRequest, apiError{Error: "read request body: " + err.Error()}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, 0, apiError{}
	}
	v, err := pyjson.DecodePayload(data)
	if err != nil {
		return nil, http.StatusBadRequest, apiError{Error: "request body is not valid JSON: " + err.Error(), Hint: fieldsHint}
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, http.StatusBadRequest, apiError{Error: "request body must be a JSON object of event fields, not " + jsonKind(v), Hint: fieldsHint}
	}
	return fields, 0, apiError{}
}
