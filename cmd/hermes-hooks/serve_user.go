package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/server"
)

// newUserServer is `serve --user`: it listens only on a Unix socket (or,
// the Windows default, behind an endpoint file: token://) whose directory
// is private to the user (made 0700 when missing; refused when someone
// else owns it or it is open to others).
func newUserServer(opts server.Options, addr server.Addr, maxProjects int) (*server.User, error) {
	if addr.Network != "unix" && addr.Network != "token" {
		return nil, usageErr("use --listen unix:///path/to/sock (or no --listen)", "--user serves every project of yours: it listens on a Unix socket only (or an endpoint file, token:///path), not %s", addr.String())
	}
	if err := server.PrivateSocketDir(filepath.Dir(addr.Address)); err != nil {
		hint := "use a directory only you can enter, e.g. the default ($HERMES_HOME/run)"
		if errors.Is(err, server.ErrUntrusted) {
			return nil, withHint(fmt.Errorf("serve --user: %w", err), hint)
		}
		return nil, fmt.Errorf("serve --user: %w", err)
	}
	return server.NewUser(opts, maxProjects)
}
