//go:build !unix

package install

import "errors"

// ErrNotChecked: on this system who may replace a file is an ACL that
// SystemBinary does not read; install says so and writes the path.
var ErrNotChecked = errors.New("who may replace it is not checked on this system (its ACLs are not read): make sure only administrators can")

// lstatOwner cannot read an owner here.
func lstatOwner(string) (fileOwner, error) { return fileOwner{}, ErrNotChecked }
