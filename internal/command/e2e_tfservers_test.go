package command

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/strata-dev/strata/internal/getproviders/registrytest"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// Static servers.
//
// A terraform run that reaches a server on a loopback address is not
// recorded (e2e_tfruns_test.go): what the server answers is not in the
// run's key. The registry and module-source fixtures (registrytest,
// sourcetest) are an exception worth making: what they serve is decided
// by the test's source alone (their TLS certificate and signing keys are
// fixed, the packages and modules they publish are written by the test),
// and their runs are among the slowest terraform makes (downloads, git).
// A test declares such a server (newStaticRegistry, staticSourceServer).
// Its address in a run's input and output becomes a token (the port
// changes from run to run), and the run's key includes a digest of the source files that decide
// what the server serves: the fixture's package and the test's file.
// Changing one of them makes the recordings stale, as for recorded
// outcomes (e2e_tfoutcomes_test.go).
//
// The servers' request logs see terraform's requests only when it runs:
// a test must not check them after a replayed run.

// staticServers maps the host (127.0.0.1:PORT) of each live static server
// to the digest of what it serves.
var staticServers sync.Map

// staticFixtures are the files whose source decides what static servers
// answer, relative to this package: the fixture packages, and the test
// files holding the fixtures' content that tests share.
var staticFixtures = []string{
	"../getproviders/registrytest/registrytest.go",
	"../initwd/sourcetest/sourcetest.go",
	"../testtls/testtls.go",
	"e2e_registry_test.go",       // thingPackages
	"e2e_module_sources_test.go", // moduleSourcesFixture
}

// staticServer declares that the server at host (127.0.0.1:PORT) serves
// only what the fixtures and the test's file (that of staticServer's
// caller's caller) decide, until the test ends.
func staticServer(t *testing.T, host string) {
	t.Helper()
	if !strings.HasPrefix(host, "127.0.0.1:") {
		t.Fatalf("static server %q: want 127.0.0.1:PORT", host)
	}
	_, file, _, ok := runtime.Caller(2)
	if !ok {
		t.Fatal("static server: no caller")
	}
	files := append(append([]string{}, staticFixtures...), filepath.Base(file))
	staticServers.Store(host, sourcesDigest(t, files))
	t.Cleanup(func() { staticServers.Delete(host) })
}

// newStaticRegistry is registrytest.New for a test whose terraform runs
// may be recorded (see staticServer): one that does not check the
// server's requests after terraform's.
func newStaticRegistry(t *testing.T, pkgs ...registrytest.Package) *registrytest.Server {
	t.Helper()
	s := registrytest.New(t, pkgs...)
	staticServer(t, s.Host)
	return s
}

// staticSourceServer declares both of a module-source server's addresses
// static (see staticServer).
func staticSourceServer(t *testing.T, s *sourcetest.Server) {
	t.Helper()
	staticServer(t, s.Host)
	staticServer(t, strings.TrimPrefix(s.PlainURL, "http://"))
}

// staticServerAt returns the end of the static server's host that starts
// at s[i], or i: "127.0.0.1:PORT", or "127_0_0_1:PORT" as it is written in
// the name of a TF_TOKEN_ variable.
func staticServerAt(s string, i int) int {
	var prefix string
	switch {
	case strings.HasPrefix(s[i:], "127.0.0.1:"):
		prefix = "127.0.0.1:"
	case strings.HasPrefix(s[i:], "127_0_0_1:"):
		prefix = "127_0_0_1:"
	default:
		return i
	}
	j := i + len(prefix)
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i+len(prefix) {
		return i
	}
	if _, ok := staticServers.Load("127.0.0.1:" + s[i+len(prefix):j]); !ok {
		return i
	}
	return j
}

// staticDigests lists the digests of the static servers a tokenizer has
// met, by token, in the order of their tokens.
func (tok *tokenizer) staticDigests() []string {
	var out []string
	for v, token := range tok.tokens {
		if !strings.HasPrefix(token, "⟦server") {
			continue
		}
		if d, ok := staticServers.Load(strings.ReplaceAll(v, "_", ".")); ok {
			out = append(out, token+" "+d.(string))
		}
	}
	sort.Strings(out)
	return out
}
