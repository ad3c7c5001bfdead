// Package clients holds the hermes-hooks clients for other languages —
// clients/python (the hermes_hooks package and the Hermes plugin) and
// clients/node (an ES module) — and, in clients_test.go, the Go test that
// runs their own test suites and the README's client snippets against a
// freshly built binary, so that `go test ./...` covers them.
//
// A client holds no dispatch logic: it asks a live `hermes-hooks serve` or
// runs `hermes-hooks dispatch`, and reads the outcome JSON.
package clients
