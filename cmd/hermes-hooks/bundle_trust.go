package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// trustedBundleKeys is the managed layer's trusted_bundle_keys: (and the
// managed file it came from): when it lists keys, only bundles signed by
// one of them install. No managed config lists none; one that is refused
// (a user could write it) or cannot be parsed is an error, so that a
// broken or hijacked managed config never widens what installs. The
// layer is read as every entrance reads it (hookconfig's ownership rule;
// HERMES_HOOKS_MANAGED_CONFIG can only add a file, never hide the
// system's).
func trustedBundleKeys() (keys []string, path string, err error) {
	layer := hookconfig.LoadManagedLayer()
	if len(layer.Files) > 0 {
		path = layer.Files[0]
	}
	if layer.Err != nil {
		return nil, path, fmt.Errorf("managed config: %w", layer.Err)
	}
	return layer.TrustedBundleKeys, path, nil
}
