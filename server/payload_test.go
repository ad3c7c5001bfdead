package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// readBudgeted reserves what a body holds, returns it all, and refuses in
// time when the budget is spent.
func TestReadBudgeted(t *testing.T) {
	for _, tc := range []struct {
		name           string
		body           string
		declared       int64
		limit, budget  int64
		wantErr        error
		tooLarge, full bool
	}{
		{name: "declared", body: "0123456789", declared: 10, limit: 100, budget: 1000},
		{name: "chunked", body: strings.Repeat("x", 300<<10), declared: -1, limit: 1 << 20, budget: 4 << 20},
		{name: "empty", body: "", declared: 0, limit: 100, budget: 1000},
		{name: "too large", body: strings.Repeat("x", 200), declared: -1, limit: 100, budget: 1000, tooLarge: true},
		{name: "budget spent", body: strings.Repeat("x", 50), declared: 50, limit: 100, budget: 10, wantErr: errBudget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPayloadBudget(tc.budget)
			w := httptest.NewRecorder()
			data, held, err := readBudgeted(context.Background(), b, http.MaxBytesReader(w, io.NopCloser(strings.NewReader(tc.body)), tc.limit), tc.declared, tc.limit, 50*time.Millisecond)
			var mbe *http.MaxBytesError
			switch {
			case tc.tooLarge:
				if !errors.As(err, &mbe) {
					t.Fatalf("err %v, want a MaxBytesError", err)
				}
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
			case err != nil || string(data) != tc.body:
				t.Fatalf("read %d bytes, err %v", len(data), err)
			}
			if held > tc.budget || held > tc.limit+1 || (err == nil && held != int64(len(tc.body))) {
				t.Fatalf("held %d for %d bytes (limit %d, budget %d)", held, len(tc.body), tc.limit, tc.budget)
			}
			b.release(held)
			if b.free != tc.budget {
				t.Fatalf("%d of %d bytes free after the release", b.free, tc.budget)
			}
		})
	}
}
