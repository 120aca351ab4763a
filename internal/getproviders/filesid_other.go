//go:build !linux

package getproviders

// filesID is not known where the change time cannot be read: every Hash
// reads the files.
func filesID(string) (string, bool) { return "", false }
