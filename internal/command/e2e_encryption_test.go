package command

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/backend/s3/s3test"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/provbuild"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// randomProviderMirror builds hashicorp/random 3.9.0 from its repository
// (provbuild, cached between runs) into a filesystem mirror; the test is
// skipped where the repository is not available.
var randomBuildMu sync.Mutex

func randomProviderMirror(t *testing.T) string {
	t.Helper()
	repos := os.Getenv("STRATA_PROVIDER_REPOS")
	if repos == "" {
		repos = "/work/.mirror"
	}
	if _, err := provbuild.RepoDir(repos, "random"); err != nil {
		t.Skipf("no hashicorp/random repository: %s", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	r := provbuild.Release{Name: "random", Version: "3.9.0"}
	// One build at a time: parallel tests would otherwise all build it
	// into the same file when the cache is empty.
	randomBuildMu.Lock()
	bin, err := provbuild.Build(filepath.Join(cache, "strata-e2e-providers"), repos, r, t.Logf)
	randomBuildMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "random-mirror")
	if _, err := provbuild.WriteMirror(dir, map[provbuild.Release]string{r: bin}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// The pbkdf2 key providers of these tests derive with SHA-256, at the
// fewest iterations allowed: a derivation takes a quarter of SHA-512's
// time, and every command derives once or twice. The default hash,
// SHA-512, is covered by the encryption package's tests and by
// TestE2EEncryptionOpenTofu.
const encryptedConfig = `
terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "3.9.0"
    }
    test = {
      source  = "hashicorp/test"
      version = "1.0.0"
    }
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
      iterations = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method   = method.aes_gcm.m
      enforced = true
    }
    plan {
      method   = method.aes_gcm.m
      enforced = true
    }
  }
}

variable "passphrase" {
  type      = string
  sensitive = true
}

variable "secret" {
  type      = string
  sensitive = true
}

variable "wo" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "slow" {
  type    = number
  default = 0
}

# A secret nobody marked sensitive: the run records hold its value.
variable "plain" {
  type = string
}

resource "terraform_data" "plain" {
  input = var.plain
}

resource "random_password" "p" {
  length  = 40
  special = false
}

resource "test_resource" "w" {
  value      = "not secret"
  write_only = var.wo
}

resource "terraform_data" "fast" {
  count = 30
  input = "${var.secret}-${count.index}"
}

resource "test_resource" "slow" {
  count               = 3
  value               = "${var.secret}-slow-${count.index}"
  create_wait_seconds = var.slow
}

output "pw" {
  value     = random_password.p.result
  sensitive = true
}
`

// atRestBackend is where a round trip of TestE2EEncryptionNoSecretAtRest
// keeps its state.
type atRestBackend struct {
	// block is the backend block, "" for the local state.
	block string
	// journal is the apply's journal, relative to the working directory.
	journal string
	// stored returns everything the backend stores, by name (nil for the
	// local state: the working directory is searched anyway).
	stored func(t *testing.T) map[string][]byte
	// state returns the stored state.
	state func(t *testing.T, dir string) []byte
	// env is more environment for the commands.
	env []string
	// lockStays: a killed apply's lock is left (nothing tells the
	// backend its holder died), to be freed with force-unlock.
	lockStays bool
}

// atRestBackends are the backends the round trip runs on; each skips t
// when its server cannot be had.
var atRestBackends = map[string]func(t *testing.T) atRestBackend{
	"local": func(t *testing.T) atRestBackend {
		return atRestBackend{
			journal: "terraform.tfstate.journal",
			state: func(t *testing.T, dir string) []byte {
				return readFile(t, filepath.Join(dir, "terraform.tfstate"))
			},
		}
	},
	"pg": func(t *testing.T) atRestBackend {
		conn := pgtest.ConnString(t)
		return atRestBackend{
			block:   fmt.Sprintf("backend \"pg\" {\n    conn_str = %q\n  }\n", conn),
			journal: filepath.Join(".terraform", "pg-default.tfstate.journal"),
			stored: func(t *testing.T) map[string][]byte {
				stored := pgStored(t, conn)
				pgAudit(t, conn) // the tables created since are audited from now on
				return stored
			},
			state: func(t *testing.T, _ string) []byte {
				var data []byte
				c := pgtest.Conn(t, conn)
				if err := c.QueryRow(context.Background(), `SELECT convert_to(data, 'UTF8') FROM terraform_remote_state.states WHERE name = 'default'`).Scan(&data); err != nil {
					t.Fatalf("the stored state: %v", err)
				}
				return data
			},
		}
	},
	"s3": func(t *testing.T) atRestBackend {
		// The server's credentials go to the commands (env), not to the
		// process: the round trips run in parallel.
		srv := s3test.Get(t)
		bucket := srv.NewBucket(t)
		const key = "at-rest/state.tfstate"
		block := srv.Block(bucket, key, "")
		block = strings.TrimSuffix(strings.TrimPrefix(block, "terraform {\n"), "}\n")
		return atRestBackend{
			block:   strings.TrimSpace(block) + "\n",
			env:     srv.Env(),
			journal: filepath.Join(".terraform", "s3-default.tfstate.journal"),
			stored: func(t *testing.T) map[string][]byte {
				keys, err := srv.Keys(context.Background(), bucket)
				if err != nil {
					t.Fatal(err)
				}
				stored := map[string][]byte{}
				for _, k := range keys {
					data, _ := srv.Object(t, bucket, k)
					stored["s3://"+bucket+"/"+k] = append([]byte(k+"\n"), data...)
				}
				return stored
			},
			state: func(t *testing.T, _ string) []byte {
				data, ok := srv.Object(t, bucket, key)
				if !ok {
					t.Fatal("no state object")
				}
				return data
			},
			lockStays: true,
		}
	},
	"http": func(t *testing.T) atRestBackend {
		srv := newHTTPStateServer(t, "", "")
		return atRestBackend{
			block:   fmt.Sprintf("backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n  }\n", srv.url, srv.url, srv.url),
			journal: filepath.Join(".terraform", "http-default.tfstate.journal"),
			stored:  func(t *testing.T) map[string][]byte { return srv.received() },
			state: func(t *testing.T, _ string) []byte {
				srv.mu.Lock()
				defer srv.mu.Unlock()
				return srv.data
			},
			lockStays: true,
		}
	},
}

// TestE2EEncryptionNoSecretAtRest: with the state and plans encrypted, no
// secret — a random_password result, a sensitive variable, a write-only
// argument, a value nobody marked sensitive, the passphrase — appears in
// any file of the working directory, nor in anything the backend stores
// (every row of every table of the pg backend's database, and every row
// written since the first search, overwritten or not, every object
// of the s3 backend's bucket, lock objects included, every body the http
// backend's server was sent), after plan, apply, a kill -9 in the middle
// of an apply (with checkpoints written to the backend), and the
// recovery by the next command.
func TestE2EEncryptionNoSecretAtRest(t *testing.T) {
	t.Parallel()
	randomMirror := randomProviderMirror(t)
	testMirror := tftestProviderMirror(t)
	for name, backend := range atRestBackends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := backend(t)
			testEncryptionNoSecretAtRest(t, b, randomMirror, testMirror)
		})
	}
}

func testEncryptionNoSecretAtRest(t *testing.T, b atRestBackend, randomMirror, testMirror string) {
	dir := t.TempDir()
	config := encryptedConfig
	if b.block != "" {
		config = strings.Replace(config, "terraform {\n", "terraform {\n  "+b.block, 1)
	}
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	store := t.TempDir() // the test provider's "cloud", outside the directory
	secrets := map[string]string{
		"sensitive variable": "sv-" + randomHex(t, 12),
		"write-only value":   "wo-" + randomHex(t, 12),
		"unmarked secret":    "us-" + randomHex(t, 12),
		"passphrase":         "pass-" + randomHex(t, 12),
	}
	env := []string{
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null", "TFTEST_STORE_DIR=" + store,
		"TF_VAR_passphrase=" + secrets["passphrase"], "TF_VAR_secret=" + secrets["sensitive variable"], "TF_VAR_wo=" + secrets["write-only value"],
		"TF_VAR_plain=" + secrets["unmarked secret"],
		// Checkpoints reach the backend during the apply that is killed.
		"TF_STATE_PERSIST_INTERVAL=1",
	}
	env = append(env, b.env...)
	command := func(extraEnv []string, args ...string) *exec.Cmd {
		cmd := exec.Command(strataBin, args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), env...), extraEnv...)
		return cmd
	}
	// Only the apply killed below needs a process of its own.
	run := func(want int, args ...string) result {
		t.Helper()
		r := runWith(t, dir, "", strataBin, env, args...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	searched := map[string]bool{}
	check := func(when string) {
		t.Helper()
		if found := secretsIn(t, dir, secrets); len(found) > 0 {
			t.Fatalf("after %s, secrets in clear in the working directory: %v", when, found)
		}
		if open := openFiles(t, dir); len(open) > 0 {
			t.Errorf("after %s, files readable by other users: %v", when, open)
		}
		if b.stored == nil {
			return
		}
		stored := b.stored(t)
		for n := range stored {
			searched[n] = true
		}
		if when != "plan" && len(secretsInStored(stored, map[string]string{"the state's envelope": `"encrypted_data":"`})) == 0 {
			t.Fatalf("after %s, no encrypted state among what the backend stores (%s): the search reads nothing", when, sortedKeys(stored))
		}
		if found := secretsInStored(stored, secrets); len(found) > 0 {
			t.Fatalf("after %s, secrets in clear in the backend: %v", when, found)
		}
	}

	run(0, "init", "-no-color", "-plugin-dir="+randomMirror, "-plugin-dir="+testMirror)
	run(0, "plan", "-no-color", "-out=tfplan")
	if raw, _ := os.ReadFile(filepath.Join(dir, "tfplan")); !encryption.IsEncrypted(raw) {
		t.Fatal("the plan file is not encrypted")
	}
	check("plan")
	run(0, "apply", "-no-color", "tfplan")
	pw := strings.TrimSpace(run(0, "output", "-raw", "pw").stdout)
	if len(pw) != 40 {
		t.Fatalf("random_password result %q", pw)
	}
	secrets["random_password result"] = pw
	if !encryption.IsEncrypted(b.state(t, dir)) {
		t.Fatal("the state is not encrypted")
	}
	check("apply")

	// state pull prints the decrypted state, as OpenTofu's does.
	pulled := run(0, "state", "pull").stdout
	if !strings.Contains(pulled, pw) || !strings.Contains(pulled, `"version": 4`) {
		t.Fatalf("state pull did not print the decrypted state:\n%.300s", pulled)
	}

	// Update everything that holds a secret, slowly, and kill -9 the
	// apply once the fast updates are done and the slow ones run.
	cmd := command([]string{"TF_VAR_secret=" + secrets["sensitive variable"] + "-2", "TF_VAR_plain=" + secrets["unmarked secret"] + "-2"}, "apply", "-auto-approve", "-no-color", "-var=slow=20")
	secrets["sensitive variable 2"] = secrets["sensitive variable"] + "-2"
	secrets["unmarked secret 2"] = secrets["unmarked secret"] + "-2"
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The providers die with strata, as in a machine's crash: a provider
	// left running would finish its update after the recovery.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	fastDone := regexp.MustCompile(`terraform_data\.fast\[\d+\]: (Creation|Modifications) complete`)
	for len(fastDone.FindAllString(out.String(), -1)) < 30 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// Past a checkpoint (TF_STATE_PERSIST_INTERVAL) of the fast updates.
	time.Sleep(1500 * time.Millisecond)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Wait()
	journal := filepath.Join(dir, b.journal)
	jb, err := os.ReadFile(journal)
	if err != nil {
		t.Fatalf("no journal after the kill: %v\n%s", err, out.String())
	}
	if lines := strings.Split(strings.TrimSpace(string(jb)), "\n"); len(lines) < 2 || !encryption.IsEncrypted([]byte(lines[1])) {
		t.Fatalf("the journal's records are not encrypted: %.300s", jb)
	}
	check("kill -9 mid-apply")

	// The next command recovers the journal with the key (after
	// force-unlock, where the dead holder's lock stays).
	if b.lockStays {
		r := run(1, "plan", "-no-color")
		m := lockIDPattern.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("plan under the dead holder's lock:\n%s", r.stderr)
		}
		check("a plan refused by the lock")
		run(0, "force-unlock", "-force", "-no-color", m[1])
	}
	run(2, "plan", "-no-color", "-detailed-exitcode")
	if _, err := os.Stat(journal); err == nil {
		t.Fatal("the journal was not consumed")
	}
	check("recovery")
	pulled = run(0, "state", "pull").stdout
	var st struct {
		Resources []struct {
			Name      string `json:"name"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(pulled), &st); err != nil {
		t.Fatal(err)
	}
	replaced := 0
	for _, res := range st.Resources {
		if res.Name != "fast" {
			continue
		}
		for _, in := range res.Instances {
			if b, _ := json.Marshal(in.Attributes["input"]); strings.Contains(string(b), secrets["sensitive variable 2"]) {
				replaced++
			}
		}
	}
	if replaced == 0 {
		t.Fatalf("the recovered state lacks the updates finished before the kill")
	}
	run(0, "apply", "-auto-approve", "-no-color")
	check("the final apply")
	run(0, "plan", "-no-color", "-detailed-exitcode")

	// The run records hold the unmarked secret encrypted: the queries
	// decrypt it with the key, and ingesting them into runs.db keeps it
	// encrypted.
	if hist := run(0, "history", "-no-color", "terraform_data.plain").stdout; !strings.Contains(hist, secrets["unmarked secret"]) {
		t.Errorf("history does not show the decrypted value:\n%s", hist)
	}
	if show := run(0, "runs", "show", "-json").stdout; !strings.Contains(show, `"format_version"`) {
		t.Errorf("runs show -json:\n%s", show)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "runs.db")); err != nil {
		t.Fatalf("the run records were not ingested: %v", err)
	}
	check("the run records' ingestion")
	if b.stored != nil {
		t.Logf("searched in the backend: %s", sortedKeys(searched))
	}

	// A wrong passphrase: a clear error, and the state is left as it was.
	before := b.state(t, dir)
	env = append(env, "TF_VAR_passphrase=a-wrong-passphrase-of-some-length")
	r := run(1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "wrong key") {
		t.Errorf("wrong passphrase error:\n%s", r.stderr)
	}
	if after := b.state(t, dir); !bytes.Equal(before, after) {
		t.Fatal("a failed decryption changed the state")
	}
	// ... and the run records say the key is wrong.
	r = run(1, "history", "-no-color", "terraform_data.plain")
	if !strings.Contains(flat(r.stderr), "cannot be decrypted") || !strings.Contains(flat(r.stderr), "wrong key") {
		t.Errorf("history with a wrong passphrase:\n%s", r.stderr)
	}

	// Key rotation through fallback: an apply reads with the old key and
	// writes with the new one, even with nothing to change; then the old
	// key is not needed.
	env = env[:len(env)-1]
	secrets["new passphrase"] = "new-" + randomHex(t, 12)
	env = append(env, "TF_VAR_new_passphrase="+secrets["new passphrase"])
	const oldKey = `    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
      iterations = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
`
	const fallback = `
      fallback {
        method = method.aes_gcm.m
      }`
	rotating := strings.NewReplacer(
		oldKey, oldKey+`    key_provider "pbkdf2" "new" {
      passphrase = var.new_passphrase
      iterations = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "new" {
      keys = key_provider.pbkdf2.new
    }
`,
		"method   = method.aes_gcm.m\n      enforced = true", "method   = method.aes_gcm.new\n      enforced = true"+fallback,
	).Replace(config) + "\nvariable \"new_passphrase\" {\n  type      = string\n  sensitive = true\n}\n"
	writeFile(t, filepath.Join(dir, "main.tf"), rotating)
	run(0, "apply", "-auto-approve", "-no-color")
	if keys := encryption.MetaKeys(b.state(t, dir)); !cmp.Equal(keys, []string{"key_provider.pbkdf2.new"}) {
		t.Fatalf("after the rotation, the state is encrypted with %v", keys)
	}
	check("key rotation")
	writeFile(t, filepath.Join(dir, "main.tf"), strings.NewReplacer(oldKey, "", fallback, "").Replace(rotating))
	env = append(env, "TF_VAR_passphrase=a-wrong-passphrase-of-some-length")
	run(0, "plan", "-no-color", "-detailed-exitcode")
	check("the plan with the new key only")
}

// TestE2EEncryptionExternalKeyProvider: TF_ENCRYPTION alone configures an
// external key provider (a shell script speaking OpenTofu's protocol);
// migrating an unencrypted state goes through an unencrypted fallback,
// and state push encrypts what it stores.
func TestE2EEncryptionExternalKeyProvider(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "secret" {
  type      = string
  sensitive = true
}
resource "terraform_data" "a" {
  input = var.secret
}
`)
	script := filepath.Join(t.TempDir(), "kp.sh")
	writeFile(t, script, `#!/bin/sh
echo '{"magic":"OpenTofu-External-Key-Provider","version":1}'
INPUT="$(cat)"
if [ "$INPUT" = "null" ]; then
  echo '{"keys":{"encryption_key":"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="},"meta":{"external_data":{}}}'
else
  echo '{"keys":{"encryption_key":"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=","decryption_key":"MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="},"meta":{"external_data":{}}}'
fi
`)
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := "ext-" + randomHex(t, 12)
	kp := `key_provider "external" "x" {
  command = ["` + script + `"]
}
method "aes_gcm" "m" {
  keys = key_provider.external.x
}
`
	var env []string
	run := func(want int, args ...string) result {
		t.Helper()
		r := runWith(t, dir, "", strataBin, append([]string{"TF_VAR_secret=" + secret}, env...), args...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	statePath := filepath.Join(dir, "terraform.tfstate")

	// An unencrypted state first.
	run(0, "apply", "-auto-approve", "-no-color")
	plain, _ := os.ReadFile(statePath)
	if !bytes.Contains(plain, []byte(secret)) {
		t.Fatal("the unencrypted state does not hold the secret (the test is wrong)")
	}

	// Encryption without a fallback refuses the unencrypted state.
	env = []string{"TF_ENCRYPTION=" + kp + `state { method = method.aes_gcm.m }`}
	r := run(1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "unencrypted") {
		t.Errorf("unencrypted state refused without saying why:\n%s", r.stderr)
	}

	// Migration: an apply with the unencrypted fallback rewrites it.
	env = []string{"TF_ENCRYPTION=" + kp + `method "unencrypted" "u" {}
state {
  method = method.aes_gcm.m
  fallback {
    method = method.unencrypted.u
  }
}`}
	r = run(0, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stderr+r.stdout, "Unencrypted method configured") {
		t.Errorf("no warning about the unencrypted method:\n%s", r.stderr)
	}
	enc, _ := os.ReadFile(statePath)
	if !encryption.IsEncrypted(enc) || bytes.Contains(enc, []byte(secret)) {
		t.Fatalf("the migrating apply did not encrypt the state:\n%.200s", enc)
	}
	if got := encryption.MetaKeys(enc); len(got) != 1 || got[0] != "key_provider.external.x" {
		t.Fatalf("metadata keys %v", got)
	}

	// Without the fallback now, and with the key from the program.
	env = []string{"TF_ENCRYPTION=" + kp + `state {
  method = method.aes_gcm.m
  enforced = true
}`}
	run(0, "plan", "-no-color", "-detailed-exitcode")
	pulled := run(0, "state", "pull").stdout
	if !strings.Contains(pulled, secret) {
		t.Fatal("state pull did not decrypt")
	}
	// state push of the pulled (clear) state stores it encrypted.
	pushed := strings.Replace(pulled, `"serial": `, `"serial": 1`, 1) // a higher serial
	writeFile(t, filepath.Join(dir, "pushed.json"), pushed)
	run(0, "state", "push", "pushed.json")
	os.Remove(filepath.Join(dir, "pushed.json"))
	after, _ := os.ReadFile(statePath)
	if !encryption.IsEncrypted(after) || bytes.Contains(after, []byte(secret)) {
		t.Fatal("state push stored the state in clear")
	}
	backups, _ := filepath.Glob(filepath.Join(dir, "terraform.tfstate.*.backup"))
	if len(backups) == 0 {
		t.Fatal("state push made no backup")
	}
	for _, b := range backups {
		if data, _ := os.ReadFile(b); !encryption.IsEncrypted(data) {
			t.Fatalf("the backup %s is not encrypted", b)
		}
	}

	// Without any encryption configured: a clear error.
	env = nil
	r = run(1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "is encrypted") {
		t.Errorf("reading an encrypted state without encryption:\n%s", r.stderr)
	}
}

// TestE2EEncryptionRemoteState: terraform_remote_state reads another
// configuration's encrypted state with remote_state_data_sources: the
// default block, and a block for one data source by name.
func TestE2EEncryptionRemoteState(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(a, "main.tf"), `
terraform {
  encryption {
    key_provider "pbkdf2" "certs" {
      passphrase               = "project A's passphrase, long"
      iterations               = 200000
      hash_function            = "sha256"
      encrypted_metadata_alias = "certificates"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.certs
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
output "cert" {
  value = "cert-from-a"
}
`)
	mustStrata(t, a, 0, "apply", "-auto-approve", "-no-color")
	if raw, _ := os.ReadFile(filepath.Join(a, "terraform.tfstate")); !encryption.IsEncrypted(raw) {
		t.Fatal("project A's state is not encrypted")
	}
	reader := func(blocks string) string {
		return `
terraform {
  encryption {
    key_provider "pbkdf2" "renamed" {
      passphrase               = "project A's passphrase, long"
      iterations               = 200000
      hash_function            = "sha256"
      encrypted_metadata_alias = "certificates"
    }
    key_provider "pbkdf2" "wrong" {
      passphrase = "not project A's passphrase"
      iterations = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "right" {
      keys = key_provider.pbkdf2.renamed
    }
    method "aes_gcm" "wrong" {
      keys = key_provider.pbkdf2.wrong
    }
    remote_state_data_sources {
` + blocks + `
    }
  }
}
data "terraform_remote_state" "a" {
  backend = "local"
  config = {
    path = "../a/terraform.tfstate"
  }
}
output "cert" {
  value = data.terraform_remote_state.a.outputs.cert
}
`
	}
	tests := map[string]struct {
		blocks string
		ok     bool
	}{
		"default":                    {`default { method = method.aes_gcm.right }`, true},
		"by name over the default":   {"default { method = method.aes_gcm.wrong }\nremote_state_data_source \"a\" { method = method.aes_gcm.right }", true},
		"wrong key":                  {`default { method = method.aes_gcm.wrong }`, false},
		"no remote state decryption": {``, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			writeFile(t, filepath.Join(b, "main.tf"), reader(tc.blocks))
			os.Remove(filepath.Join(b, "terraform.tfstate"))
			if !tc.ok {
				r := mustStrata(t, b, 1, "plan", "-no-color")
				if !strings.Contains(flat(r.stderr), "Unable to read remote state") {
					t.Fatalf("unclear error:\n%s", r.stderr)
				}
				return
			}
			mustStrata(t, b, 0, "apply", "-auto-approve", "-no-color")
			if out := mustStrata(t, b, 0, "output", "-raw", "cert").stdout; out != "cert-from-a" {
				t.Fatalf("read %q", out)
			}
		})
	}
}

// TestE2EStateReadableWarning: plan warns when the state holds sensitive
// values and every user can read the file; strata's own writes are 0600.
func TestE2EStateReadableWarning(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `
variable "s" {
  type      = string
  sensitive = true
  default   = "x"
}
output "o" {
  value     = var.s
  sensitive = true
}
`)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	path := filepath.Join(dir, "terraform.tfstate")
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("state created with mode %04o", st.Mode().Perm())
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-out=tfplan")
	if st, _ := os.Stat(filepath.Join(dir, "tfplan")); st.Mode().Perm() != 0o600 {
		t.Fatalf("plan file created with mode %04o", st.Mode().Perm())
	}
	if r := mustStrata(t, dir, 0, "plan", "-no-color"); strings.Contains(r.stdout+r.stderr, "readable by all users") {
		t.Fatal("warned about a 0600 state")
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustStrata(t, dir, 0, "plan", "-no-color")
	if !strings.Contains(flat(r.stdout+r.stderr), "State file readable by all users") {
		t.Fatalf("no warning for a 0644 state holding a sensitive output:\n%s%s", r.stdout, r.stderr)
	}
}

// TestE2EEncryptionSharedPGRuns: with the state encrypted on a pg
// backend, the run logs shared through the backend's database carry the
// values encrypted, and each working directory decrypts the other's
// with the key.
func TestE2EEncryptionSharedPGRuns(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	env := []string{"TF_ENCRYPTION=" + `
key_provider "pbkdf2" "k" {
  passphrase = "a shared passphrase of some length"
  iterations = 200000
  hash_function = "sha256"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method   = method.aes_gcm.m
  enforced = true
}`}
	run := func(dir string, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, strataBin, args...)
		if r.code != 0 {
			t.Fatalf("strata %s: exit code %d, want 0\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		return r
	}
	config := "terraform {\n  backend \"pg\" {\n    conn_str = \"" + conn + "\"\n  }\n}\nvariable \"v\" {}\nresource \"terraform_data\" \"a\" {\n  input = var.v\n}\n"
	secretA, secretB := "from-a-"+randomHex(t, 8), "from-b-"+randomHex(t, 8)
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		run(dir, "init", "-no-color")
	}
	run(a, "apply", "-auto-approve", "-no-color", "-var", "v="+secretA)
	run(b, "apply", "-auto-approve", "-no-color", "-var", "v="+secretB)
	for name, dir := range map[string]string{"a": a, "b": b} {
		r := run(dir, "history", "-json", "-attribute=input", "terraform_data.a")
		if !strings.Contains(r.stdout, secretA) || !strings.Contains(r.stdout, secretB) {
			t.Errorf("history in %s lacks the decrypted values:\n%s", name, r.stdout)
		}
		if found := secretsIn(t, dir, map[string]string{"a": secretA, "b": secretB}); len(found) > 0 {
			t.Errorf("in %s, secrets in clear: %v", name, found)
		}
	}

	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var logs, states [][]byte
	for q, dst := range map[string]*[][]byte{
		`SELECT data FROM terraform_remote_state.strata_run_logs`:            &logs,
		`SELECT convert_to(data, 'UTF8') FROM terraform_remote_state.states`: &states,
	} {
		rows, err := c.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var data []byte
			if err := rows.Scan(&data); err != nil {
				t.Fatal(err)
			}
			*dst = append(*dst, data)
		}
		rows.Close()
	}
	if len(logs) != 2 || len(states) != 1 {
		t.Fatalf("%d shared run logs and %d states, want 2 and 1", len(logs), len(states))
	}
	if found := secretsInStored(pgStored(t, conn), map[string]string{"a": secretA, "b": secretB}); len(found) > 0 {
		t.Errorf("values in clear in the backend's database: %v", found)
	}
	if !bytes.Contains(logs[0], []byte(`"changes_sealed":{"meta":`)) {
		t.Errorf("the shared run log holds no encrypted changes: %.400q", logs[0])
	}
}

// tofuBinary is OpenTofu's CLI, from STRATA_TOFU or tofu on PATH; the
// test is skipped without it.
func tofuBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("STRATA_TOFU"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("STRATA_TOFU: %v", err)
		}
		return p
	}
	p, err := exec.LookPath("tofu")
	if err != nil {
		t.Skip("no tofu on PATH (nor STRATA_TOFU)")
	}
	return p
}

// tofuEncryptionConfig encrypts state and plans with the pbkdf2 key
// provider "NAME" of passphrase var.NAME, falling back to the key
// provider of var.FALLBACK when fallback is not "".
func tofuEncryptionConfig(name, fallback string) string {
	block := func(kind string) string {
		b := "    " + kind + " {\n      method = method.aes_gcm." + name + "\n"
		if fallback != "" {
			b += "      fallback {\n        method = method.aes_gcm." + fallback + "\n      }\n"
		}
		return b + "    }\n"
	}
	keys := ""
	vars := ""
	for _, n := range []string{name, fallback} {
		if n == "" {
			continue
		}
		keys += "    key_provider \"pbkdf2\" \"" + n + "\" {\n      passphrase = var." + n + "\n      iterations = 200000\n    }\n" +
			"    method \"aes_gcm\" \"" + n + "\" {\n      keys = key_provider.pbkdf2." + n + "\n    }\n"
		vars += "variable \"" + n + "\" {\n  type      = string\n  sensitive = true\n}\n"
	}
	return vars + `
variable "v" {
  type = string
}

resource "terraform_data" "a" {
  input = var.v
}

output "o" {
  value = terraform_data.a.output
}

terraform {
  encryption {
` + keys + block("state") + block("plan") + `  }
}
`
}

// TestE2EEncryptionOpenTofu: OpenTofu and strata each decrypt the state
// and plan the other encrypted (pbkdf2 and aes_gcm), including after a
// key rotation through fallback, in both directions. Skipped without
// tofu (STRATA_TOFU or PATH).
func TestE2EEncryptionOpenTofu(t *testing.T) {
	t.Parallel()
	tofu := tofuBinary(t)
	dir := t.TempDir()
	env := []string{"TF_VAR_a=passphrase a of some length", "TF_VAR_b=passphrase b of some length", "TF_VAR_c=passphrase c of some length"}
	tool := func(bin string, want int, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, bin, append(args, "-no-color")...)
		if r.code != want {
			t.Fatalf("%s %s: exit %d, want %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	config := func(name, fallback string) {
		t.Helper()
		writeFile(t, filepath.Join(dir, "main.tf"), tofuEncryptionConfig(name, fallback))
	}
	// noChanges: bin reads the encrypted state and finds it up to date
	// with v, which the other tool applied.
	noChanges := func(bin, v string) {
		t.Helper()
		tool(bin, 0, "plan", "-detailed-exitcode", "-var", "v="+v)
		if r := tool(bin, 0, "output", "-raw", "o"); r.stdout != v {
			t.Fatalf("%s output o = %q, want %q", filepath.Base(bin), r.stdout, v)
		}
	}
	encrypted := func(what string) {
		t.Helper()
		if raw := readFile(t, filepath.Join(dir, "terraform.tfstate")); !encryption.IsEncrypted(raw) {
			t.Fatalf("after %s, the state is not encrypted:\n%.300s", what, raw)
		}
	}

	config("a", "")
	tool(tofu, 0, "init")
	tool(tofu, 0, "apply", "-auto-approve", "-var", "v=by-tofu")
	encrypted("tofu apply")
	noChanges(strataBin, "by-tofu")
	tool(strataBin, 0, "apply", "-auto-approve", "-var", "v=by-strata")
	encrypted("strata apply")
	noChanges(tofu, "by-strata")

	// Rotation: strata reads tofu's key a through the fallback and writes
	// with key b, which tofu then reads alone...
	config("b", "a")
	tool(strataBin, 0, "apply", "-auto-approve", "-var", "v=rotated-by-strata")
	config("b", "")
	noChanges(tofu, "rotated-by-strata")
	// ... and the other way round.
	config("c", "b")
	tool(tofu, 0, "apply", "-auto-approve", "-var", "v=rotated-by-tofu")
	config("c", "")
	noChanges(strataBin, "rotated-by-tofu")
	if r := tool(strataBin, 0, "state", "pull"); !strings.Contains(r.stdout, `"rotated-by-tofu"`) {
		t.Fatalf("strata state pull:\n%s", r.stdout)
	}

	// Plans: each decrypts the other's plan file (the plan formats
	// differ, so neither applies the other's plan). strata's decryption
	// of tofu's plan gives a zip archive with tofu's tfplan in it.
	tool(tofu, 2, "plan", "-detailed-exitcode", "-var", "v=planned", "-out=tofu.tfplan")
	raw := readFile(t, filepath.Join(dir, "tofu.tfplan"))
	if !encryption.IsEncrypted(raw) {
		t.Fatalf("tofu's plan is not encrypted: %.100q", raw)
	}
	cfg, diags := encryption.DecodeEnv(`
key_provider "pbkdf2" "c" {
  passphrase = "passphrase c of some length"
  iterations = 200000
  hash_function = "sha256"
}
method "aes_gcm" "c" {
  keys = key_provider.pbkdf2.c
}
plan {
  method = method.aes_gcm.c
}`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	enc, diags := encryption.New(cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plain, _, err := enc.Plan().DecryptPlan(raw)
	if err != nil {
		t.Fatalf("strata cannot decrypt tofu's plan: %v", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		t.Fatalf("tofu's decrypted plan is not a zip archive: %v", err)
	}
	hasPlan := false
	for _, f := range zr.File {
		hasPlan = hasPlan || f.Name == "tfplan"
	}
	if !hasPlan {
		t.Fatalf("tofu's decrypted plan has no tfplan entry")
	}
	if r := tool(strataBin, 1, "show", "tofu.tfplan"); strings.Contains(r.stderr, "decrypt") || !strings.Contains(r.stderr, "not a strata plan file") {
		t.Errorf("strata show of tofu's plan:\n%s", r.stderr)
	}
	// tofu show decrypts strata's plan (with the right key only) and then
	// does not know its format.
	tool(strataBin, 2, "plan", "-detailed-exitcode", "-var", "v=planned", "-out=strata.tfplan")
	if r := tool(tofu, 1, "show", "strata.tfplan"); strings.Contains(r.stdout+r.stderr, "decryption failed") || !strings.Contains(r.stdout+r.stderr, "not a valid plan file") {
		t.Errorf("tofu show of strata's plan:\n%s%s", r.stdout, r.stderr)
	}
	config("b", "")
	if r := tool(tofu, 1, "show", "strata.tfplan"); !strings.Contains(r.stdout+r.stderr, "decryption failed") {
		t.Errorf("tofu show of strata's plan with another key:\n%s%s", r.stdout, r.stderr)
	}
}

// TestE2EEncryptionErroredState: when the backend refuses the final
// state, errored.tfstate and the journal left for the next command are
// encrypted; the next command recovers the journal into the backend,
// encrypted, and no secret is in clear anywhere.
func TestE2EEncryptionErroredState(t *testing.T) {
	t.Parallel()
	srv := newHTTPStateServer(t, "", "")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), httpBackendConfig(srv.url, `
variable "secret" {
  type      = string
  sensitive = true
}
resource "terraform_data" "a" {
  count = 3
  input = "${var.secret}-${count.index}"
}
`))
	secrets := map[string]string{"sensitive variable": "sv-" + randomHex(t, 12), "passphrase": "pass-" + randomHex(t, 12)}
	env := []string{"TF_VAR_secret=" + secrets["sensitive variable"], "TF_ENCRYPTION=" + `
key_provider "pbkdf2" "k" {
  passphrase = "` + secrets["passphrase"] + `"
  iterations = 200000
  hash_function = "sha256"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method   = method.aes_gcm.m
  enforced = true
}`}
	run := func(want int, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, strataBin, append(args, "-no-color")...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	check := func(when string) {
		t.Helper()
		if found := secretsIn(t, dir, secrets); len(found) > 0 {
			t.Fatalf("after %s, secrets in clear in the working directory: %v", when, found)
		}
		if found := secretsInStored(srv.received(), secrets); len(found) > 0 {
			t.Fatalf("after %s, secrets in clear on the server: %v", when, found)
		}
	}
	run(0, "init")
	srv.setFailPosts(true)
	r := run(1, "apply", "-auto-approve")
	if !strings.Contains(flat(r.stderr), "Failed to save state") {
		t.Fatalf("apply with the server refusing the state:\n%s", r.stderr)
	}
	errored := readFile(t, filepath.Join(dir, "errored.tfstate"))
	if !encryption.IsEncrypted(errored) {
		t.Fatalf("errored.tfstate is not encrypted: %.300s", errored)
	}
	if st, err := os.Stat(filepath.Join(dir, "errored.tfstate")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("errored.tfstate: %v %v", st.Mode(), err)
	}
	journal := filepath.Join(dir, ".terraform", "http-default.tfstate.journal")
	jb := readFile(t, journal)
	if lines := strings.Split(strings.TrimSpace(string(jb)), "\n"); len(lines) < 2 || !encryption.IsEncrypted([]byte(lines[1])) {
		t.Fatalf("the journal's records are not encrypted: %.300s", jb)
	}
	check("the failed write")

	srv.setFailPosts(false)
	run(0, "plan", "-detailed-exitcode")
	if _, err := os.Stat(journal); err == nil {
		t.Fatal("the journal was not recovered")
	}
	if stored := srv.received()["stored state"]; !encryption.IsEncrypted(stored) {
		t.Fatalf("the recovered state is not stored encrypted: %.300s", stored)
	}
	if pulled := run(0, "state", "pull").stdout; strings.Count(pulled, `"index_key"`) != 3 || !strings.Contains(pulled, secrets["sensitive variable"]+"-2") {
		t.Errorf("the recovered state lacks the resources:\n%.500s", pulled)
	}
	check("the recovery")
}
