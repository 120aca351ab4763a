package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/strata-dev/strata/internal/provbuild"
)

// provider is one release of an upstream provider the suites need.
type provider = provbuild.Release

// decoyVersion is the version of the decoy put in an acceptance suite's
// mirror for the suite's own provider: higher than any release, so a CLI
// that ignores TF_REATTACH_PROVIDERS selects it, and fails.
const decoyVersion = "99.0.0"

// buildDecoy builds the decoy provider binary into the cache.
func buildDecoy(cache string) (string, error) {
	out := filepath.Join(cache, "decoy", "terraform-provider-decoy")
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	src, err := os.MkdirTemp("", "strata-compat-decoy-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	files := map[string]string{
		"go.mod": "module decoy\n\ngo 1.21\n",
		"main.go": `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "decoy provider: the CLI started an installed provider instead of the one handed over in TF_REATTACH_PROVIDERS")
	os.Exit(1)
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the decoy provider: %v\n%s", err, b)
	}
	return out, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "compat: "+strings.TrimSuffix(format, "\n")+"\n", args...)
}
