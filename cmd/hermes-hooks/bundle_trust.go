package main

import (
	"errors"
	"fmt"
	"io/fs"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// trustedBundleKeys is the managed config's trusted_bundle_keys: (and the
// file it came from): when it lists keys, only bundles signed by one of them
// install. A missing managed config lists none; one that cannot be read or
// parsed is an error, so that a broken managed config never widens what
// installs.
//
// It reads the managed config itself ($HERMES_HOOKS_MANAGED_CONFIG, else the
// OS default) until the managed layer's own reader (Config.Managed) lands;
// this function is the one place to re-point then.
func trustedBundleKeys() (keys []string, path string, err error) {
	path = bundle.ManagedConfigPath()
	data, err := fsutil.ReadRegular(path, "", 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, fmt.Errorf("managed config %s: %w", path, err)
	}
	var doc struct {
		TrustedBundleKeys []string `yaml:"trusted_bundle_keys"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, path, fmt.Errorf("managed config %s: trusted_bundle_keys: %w", path, err)
	}
	return doc.TrustedBundleKeys, path, nil
}
