package plugin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
)

// The test providers under testdata/providers, a Go module of their own,
// are built once per test run into a temporary directory that TestMain
// removes.
var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	// ownBuildDir is false in a child test process that uses its
	// parent's build (see TestCleanupClients).
	ownBuildDir bool
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Every test closes what it starts; a plugin process still running
	// now is an orphan.
	if kids := childProcesses(); code == 0 && len(kids) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: plugin processes left running after the tests: %s\n", strings.Join(kids, "; "))
		code = 1
	}
	CleanupClients()
	if ownBuildDir && buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// testProvider returns the path of a built test provider binary, named as
// Terraform names installed providers.
func testProvider(t *testing.T, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not available to build the test providers: %v", err)
	}
	buildOnce.Do(func() {
		if dir := os.Getenv("STRATA_PLUGIN_BUILD_DIR"); dir != "" {
			buildDir = dir
			return
		}
		buildDir, buildErr = os.MkdirTemp("", "strata-plugin-test")
		if buildErr != nil {
			return
		}
		ownBuildDir = true
		for _, p := range []string{"stratafw", "stratav5"} {
			cmd := exec.Command(goTool, "build", "-o", filepath.Join(buildDir, "terraform-provider-"+p+"_v0.1.0"), "./"+p)
			cmd.Dir = filepath.Join("testdata", "providers")
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly -buildvcs=false")
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("building %s: %v\n%s", p, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, "terraform-provider-"+name+"_v0.1.0")
}

// start starts a test provider and closes it when the test ends.
func start(t *testing.T, name string, opts ...Option) *Client {
	t.Helper()
	p, err := NewClient(testProvider(t, name), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	return p.(*Client)
}

// childProcesses lists the live child processes of the test binary, from
// /proc where there is one.
func childProcesses() []string {
	if runtime.GOOS != "linux" {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	me := os.Getpid()
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may contain spaces.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == me {
			out = append(out, fmt.Sprintf("%d %s state %s", pid, s[strings.IndexByte(s, '(')+1:i], f[0]))
		}
	}
	sort.Strings(out)
	return out
}

// processAlive reports whether a process with the pid exists.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	proc, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return proc.Signal(syscall.Signal(0)) == nil
}

// objVal builds an object of the block's type from the given attribute and
// block values; the rest are null, or empty collections for list, set and
// map blocks, as the configuration decoder produces them.
func objVal(b *configschema.Block, vals map[string]cty.Value) cty.Value {
	out := map[string]cty.Value{}
	for name, a := range b.Attributes {
		if v, ok := vals[name]; ok {
			out[name] = v
		} else {
			out[name] = cty.NullVal(a.ImpliedType())
		}
	}
	for name, nb := range b.BlockTypes {
		if v, ok := vals[name]; ok {
			out[name] = v
			continue
		}
		ety := nb.Block.ImpliedType()
		switch nb.Nesting {
		case configschema.NestingSingle:
			out[name] = cty.NullVal(ety)
		case configschema.NestingGroup:
			out[name] = objVal(&nb.Block, nil)
		case configschema.NestingList:
			out[name] = cty.ListValEmpty(ety)
		case configschema.NestingSet:
			out[name] = cty.SetValEmpty(ety)
		case configschema.NestingMap:
			out[name] = cty.MapValEmpty(ety)
		}
	}
	for name := range vals {
		if _, ok := out[name]; !ok {
			panic("objVal: no attribute or block " + name)
		}
	}
	return cty.ObjectVal(out)
}

// noErrors fails the test on error diagnostics.
func noErrors(t *testing.T, what string, diags providers.Diagnostics) {
	t.Helper()
	if diags.HasErrors() {
		t.Fatalf("%s: unexpected errors: %s", what, fmtDiags(diags))
	}
}

// noDiags fails the test on any diagnostic.
func noDiags(t *testing.T, what string, diags providers.Diagnostics) {
	t.Helper()
	if len(diags) > 0 {
		t.Fatalf("%s: unexpected diagnostics: %s", what, fmtDiags(diags))
	}
}

// findDiag returns the first diagnostic with the summary.
func findDiag(diags providers.Diagnostics, summary string) *providers.Diagnostic {
	for i := range diags {
		if diags[i].Summary == summary {
			return &diags[i]
		}
	}
	return nil
}

func fmtDiags(diags providers.Diagnostics) string {
	var b bytes.Buffer
	for _, d := range diags {
		sev := "error"
		if d.Severity == providers.Warning {
			sev = "warning"
		}
		fmt.Fprintf(&b, "\n  %s: %s: %s (at %#v)", sev, d.Summary, d.Detail, d.Attribute)
	}
	return b.String()
}

// syncBuffer is a bytes.Buffer safe for the log writer's goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
