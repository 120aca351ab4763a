package command

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// The binaries the end-to-end tests run (strata, the test providers) are
// built into a directory of the user's cache that outlives the test
// process, one per checkout: go build does not link again a binary that
// is up to date, which saves a few seconds of CPU per binary and per run,
// and nothing is left behind in the temporary directory.

// e2eBinDir is the cache directory of this checkout's test binaries.
func e2eBinDir() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "strata-e2e-bin", hex.EncodeToString(sum[:8])), nil
}

// moduleRoot is the repository's root directory (where main.go is).
func moduleRoot() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}

// goBuild builds package pkg of the module in dir into out, which go
// build leaves alone when it is up to date, and replaces by a rename
// otherwise (so that a process running the old one is not disturbed).
func goBuild(dir, pkg, out string, ldflags string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	// -trimpath: the same source builds the same binary in every
	// checkout, so provider package hashes in recorded terraform runs
	// (e2e_tfruns_test.go) hold on every machine with this Go.
	args := []string{"build", "-trimpath"}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	cmd := exec.Command("go", append(args, "-o", out, pkg)...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// buildStrata builds the strata binary the tests run.
func buildStrata() (string, error) {
	bin, err := e2eBinDir()
	if err != nil {
		return "", err
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	removeStaleBinDirs(filepath.Dir(bin))
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return "", err
	}
	if err := writeFileAtomic(filepath.Join(bin, checkoutFile), []byte(root)); err != nil {
		return "", err
	}
	out := filepath.Join(bin, "strata")
	return out, goBuild(root, ".", out, "-X main.version=0.1.0")
}

// checkoutFile, in a checkout's directory of test binaries, holds the
// checkout's path.
const checkoutFile = "checkout"

// removeStaleBinDirs removes the test binaries of checkouts that no
// longer exist (worktrees and clones removed since), which would
// otherwise fill the cache with about 100 MB each.
func removeStaleBinDirs(cache string) {
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		dir := filepath.Join(cache, e.Name())
		root, err := os.ReadFile(filepath.Join(dir, checkoutFile))
		if err != nil {
			// Written before checkouts were recorded: gone when a
			// week old.
			if info, err := os.Stat(dir); err == nil && time.Since(info.ModTime()) > 7*24*time.Hour {
				os.RemoveAll(dir)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(string(root), "go.mod")); os.IsNotExist(err) {
			os.RemoveAll(dir)
		}
	}
}

// buildTestProviderMirror builds the test provider testdata/providers/<name>
// (of internal/providers/plugin) as strata/<name> 0.1.0 into a filesystem
// mirror of its own, and returns the mirror's directory. Tests only read
// the mirror.
func buildTestProviderMirror(name string) (string, error) {
	bin, err := e2eBinDir()
	if err != nil {
		return "", err
	}
	mirror := filepath.Join(bin, "mirror-"+name)
	target := filepath.Join(mirror, "registry.terraform.io", "strata", name, "0.1.0", runtime.GOOS+"_"+runtime.GOARCH,
		"terraform-provider-"+name+"_v0.1.0")
	// Without the symbol table and debug information (which stack traces
	// do not need) the binary is a third smaller: each run that starts it
	// reads and hashes less.
	return mirror, goBuild(filepath.Join("..", "providers", "plugin", "testdata", "providers"), "./"+name, target, "-s -w")
}

// writeFileAtomic writes a file that other test processes may be reading:
// they see the old content or the new, never a part.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// removeSharedMirrors removes the provider mirror the watch tests build
// into the temporary directory, once every test has run.
func removeSharedMirrors() {
	if localDir != "" {
		os.RemoveAll(filepath.Dir(localDir))
	}
}
