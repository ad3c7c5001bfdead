//go:build unix && !darwin

package hookconfig

// SystemManagedPath is where an administrator deploys the managed config.
func SystemManagedPath() string { return "/etc/hermes-hooks/config.yaml" }
