package encryption

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// setup decodes src (the body of an encryption block) and builds its
// Encryption, with vars as the input variables.
func setup(t *testing.T, src string, vars map[string]cty.Value) (*Encryption, hcl.Diagnostics) {
	t.Helper()
	cfg, diags := DecodeEnv(src)
	if diags.HasErrors() {
		t.Fatalf("decoding: %s", diags.Error())
	}
	eval := func(expr hcl.Expression, _ string) (cty.Value, hcl.Diagnostics) {
		return expr.Value(&hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}})
	}
	return New(cfg, eval)
}

func mustSetup(t *testing.T, src string) *Encryption {
	t.Helper()
	e, diags := setup(t, src, map[string]cty.Value{"passphrase": cty.StringVal("a passphrase that is long enough")})
	if diags.HasErrors() {
		t.Fatalf("setup: %s", diags.Error())
	}
	return e
}

type vectorCase struct {
	Name         string `json:"name"`
	Passphrase   string `json:"passphrase"`
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
	AAD          []int  `json:"aad"`
	KeyHex       string `json:"key_hex"`
	MetaJSON     string `json:"meta_json"`
	Plain        string `json:"plain"`
	Stored       string `json:"stored"`
}

func loadVectors(t *testing.T) []vectorCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vectorCase
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

func vectorConfig(v vectorCase) string {
	alias := ""
	if !strings.HasPrefix(v.Name, "state") {
		alias = `encrypted_metadata_alias = "my-alias"`
	}
	aad := ""
	if v.AAD != nil {
		b, _ := json.Marshal(v.AAD)
		aad = "aad = " + string(b)
	}
	return `
key_provider "pbkdf2" "k" {
  passphrase    = "` + v.Passphrase + `"
  iterations    = ` + itoa(v.Iterations) + `
  hash_function = "` + v.HashFunction + `"
  key_length    = ` + itoa(v.KeyLength) + `
  salt_length   = ` + itoa(len(v.Salt)) + `
  ` + alias + `
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
  ` + aad + `
}
state { method = method.aes_gcm.m }
`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestVectors reads payloads that testdata/gen_vectors.py encrypted by
// following OpenTofu's documented format with Python's own PBKDF2 and
// AES-GCM, and checks that strata writes the same format: the same
// derived key, the same metadata bytes, and a ciphertext laid out as
// nonce || AES-GCM(plain) that a plain AES-GCM decrypts.
func TestVectors(t *testing.T) {
	t.Parallel()
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			key, err := deriveKey([]byte(v.Passphrase), pbkdf2Meta{Salt: v.Salt, Iterations: v.Iterations, HashFunction: v.HashFunction, KeyLength: v.KeyLength})
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(key); got != v.KeyHex {
				t.Fatalf("derived key %s, want %s", got, v.KeyHex)
			}
			tgt := mustSetup(t, vectorConfig(v)).State()
			isState := strings.HasPrefix(v.Name, "state")

			// Reading what Python wrote.
			var got []byte
			if isState {
				got, _, err = tgt.DecryptState([]byte(v.Stored))
			} else {
				got, err = tgt.DecryptRecord([]byte(v.Stored))
			}
			if err != nil {
				t.Fatalf("decrypting the vector: %s", err)
			}
			if string(got) != v.Plain {
				t.Fatalf("decrypted %q, want %q", got, v.Plain)
			}

			// Writing: with the vector's salt, the metadata is the same
			// bytes, and the vector's key opens the ciphertext.
			e := mustSetup(t, vectorConfig(v))
			e.salt = func(int) ([]byte, error) { return v.Salt, nil }
			tgt = e.State()
			var stored []byte
			if isState {
				stored, err = tgt.EncryptState([]byte(v.Plain))
			} else {
				stored, err = tgt.EncryptRecord([]byte(v.Plain))
			}
			if err != nil {
				t.Fatal(err)
			}
			var env map[string]json.RawMessage
			if err := json.Unmarshal(stored, &env); err != nil {
				t.Fatal(err)
			}
			var meta map[string][]byte
			var data []byte
			_ = json.Unmarshal(env["meta"], &meta)
			_ = json.Unmarshal(env["encrypted_data"], &data)
			metaKey := "key_provider.pbkdf2.k"
			if !isState {
				metaKey = "my-alias"
			}
			if string(meta[metaKey]) != v.MetaJSON {
				t.Errorf("metadata %s, want %s", meta[metaKey], v.MetaJSON)
			}
			if string(env["encryption_version"]) != `"v0"` {
				t.Errorf("encryption_version %s", env["encryption_version"])
			}
			if isState && (string(env["serial"]) != "3" || string(env["lineage"]) != `"5b6e0b5e-6a0c-4f7e-9a49-0e1d0c2b7a11"`) {
				t.Errorf("clear fields serial %s lineage %s", env["serial"], env["lineage"])
			}
			block, _ := aes.NewCipher(key)
			gcm, _ := cipher.NewGCM(block)
			var aad []byte
			for _, b := range v.AAD {
				aad = append(aad, byte(b))
			}
			plain, err := gcm.Open(nil, data[:12], data[12:], aad)
			if err != nil || string(plain) != v.Plain {
				t.Fatalf("opening strata's ciphertext with the vector's key: %v", err)
			}
			if bytes.Contains(stored, []byte("hunter2")) {
				t.Fatal("the secret is in the stored form")
			}
		})
	}
}

const basic = `
key_provider "pbkdf2" "k" {
  passphrase = var.passphrase
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }
plan { method = method.aes_gcm.m }
`

const sampleState = `{"version":4,"terraform_version":"1.11.4","serial":7,"lineage":"abc","outputs":{"s":{"value":"top-secret-value","type":"string","sensitive":true}},"resources":[]}`

func TestRoundTripAndWrongKey(t *testing.T) {
	t.Parallel()
	e := mustSetup(t, basic)
	stored, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte("top-secret-value")) {
		t.Fatal("secret in clear")
	}
	if !IsEncrypted(stored) || IsEncrypted([]byte(sampleState)) {
		t.Fatal("IsEncrypted is wrong")
	}
	plain, st, err := e.State().DecryptState(stored)
	if err != nil || st != StatusOK || string(plain) != sampleState {
		t.Fatalf("round trip: %q %v %v", plain, st, err)
	}

	other, diags := setup(t, basic, map[string]cty.Value{"passphrase": cty.StringVal("not the passphrase it was")})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, _, err = other.State().DecryptState(stored)
	if err == nil || !strings.Contains(err.Error(), "wrong key") {
		t.Fatalf("wrong key: got %v", err)
	}

	// No encryption configured: a clear error, not a state parse error.
	var ee *EncryptedError
	if _, _, err := (*Target)(nil).DecryptState(stored); !errors.As(err, &ee) {
		t.Fatalf("nil target on encrypted state: %v", err)
	}
	if out, _, err := (*Target)(nil).DecryptState([]byte(sampleState)); err != nil || string(out) != sampleState {
		t.Fatalf("nil target passes through: %v", err)
	}

	// Tampering with the clear serial is detected.
	tampered := bytes.Replace(stored, []byte(`"serial":7`), []byte(`"serial":8`), 1)
	if _, _, err := e.State().DecryptState(tampered); err == nil || !strings.Contains(err.Error(), "serial") {
		t.Fatalf("tampered serial: %v", err)
	}
}

func TestPlanEnvelope(t *testing.T) {
	t.Parallel()
	e := mustSetup(t, basic)
	zip := []byte("PK\x03\x04 pretend zip with secret-in-plan")
	stored, err := e.Plan().EncryptPlan(zip)
	if err != nil || bytes.Contains(stored, []byte("secret-in-plan")) {
		t.Fatalf("encrypt plan: %v", err)
	}
	got, _, err := e.Plan().DecryptPlan(stored)
	if err != nil || !bytes.Equal(got, zip) {
		t.Fatalf("decrypt plan: %v", err)
	}
	if _, _, err := e.Plan().DecryptPlan(zip); err == nil {
		t.Fatal("an unencrypted plan was accepted without an unencrypted fallback")
	}
	if _, _, err := (*Target)(nil).DecryptPlan(stored); err == nil {
		t.Fatal("an encrypted plan was read without encryption")
	}
}

func TestFallback(t *testing.T) {
	t.Parallel()
	oldCfg := `
key_provider "pbkdf2" "old" {
  passphrase = "the old passphrase, long enough"
  iterations = 200000
}
method "aes_gcm" "old" { keys = key_provider.pbkdf2.old }
state { method = method.aes_gcm.old }
`
	stored, err := mustSetup(t, oldCfg).State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	rotated := `
key_provider "pbkdf2" "old" {
  passphrase = "the old passphrase, long enough"
  iterations = 200000
}
key_provider "pbkdf2" "new" {
  passphrase = "the new passphrase, long enough"
  iterations = 200000
}
method "aes_gcm" "old" { keys = key_provider.pbkdf2.old }
method "aes_gcm" "new" { keys = key_provider.pbkdf2.new }
state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}
`
	e := mustSetup(t, rotated)
	plain, st, err := e.State().DecryptState(stored)
	if err != nil || st != StatusMigrate || string(plain) != sampleState {
		t.Fatalf("fallback read: %v %v", st, err)
	}
	again, err := e.State().EncryptState(plain)
	if err != nil {
		t.Fatal(err)
	}
	if got := MetaKeys(again); len(got) != 1 || got[0] != "key_provider.pbkdf2.new" {
		t.Fatalf("rewritten with %v", got)
	}
	if _, st, err := e.State().DecryptState(again); err != nil || st != StatusOK {
		t.Fatalf("reading the rotated state: %v %v", st, err)
	}

	// Migrating from unencrypted.
	noFallback := mustSetup(t, basic)
	if _, _, err := noFallback.State().DecryptState([]byte(sampleState)); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Fatalf("unencrypted state without a fallback: %v", err)
	}
	mig, diags := setup(t, strings.Replace(basic, "state { method = method.aes_gcm.m }", `method "unencrypted" "migrate" {}
state {
  method = method.aes_gcm.m
  fallback { method = method.unencrypted.migrate }
}`, 1), map[string]cty.Value{"passphrase": cty.StringVal("a passphrase that is long enough")})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(diags) != 1 || diags[0].Summary != "Unencrypted method configured" {
		t.Fatalf("want the unencrypted warning, got %v", diags)
	}
	if out, st, err := mig.State().DecryptState([]byte(sampleState)); err != nil || st != StatusMigrate || string(out) != sampleState {
		t.Fatalf("migration read: %v %v", st, err)
	}

	// Back to unencrypted: the primary unencrypted method writes clear.
	back := mustSetup(t, strings.Replace(basic, "state { method = method.aes_gcm.m }", `method "unencrypted" "u" {}
state {
  method = method.unencrypted.u
  fallback { method = method.aes_gcm.m }
}`, 1))
	stored2, _ := mustSetup(t, basic).State().EncryptState([]byte(sampleState))
	out, st, err := back.State().DecryptState(stored2)
	if err != nil || st != StatusMigrate {
		t.Fatalf("decrypting to go back: %v %v", st, err)
	}
	if w, _ := back.State().EncryptState(out); string(w) != sampleState {
		t.Fatalf("the unencrypted method wrote %s", w)
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src  string
		want string
	}{
		"short passphrase":        {`key_provider "pbkdf2" "k" { passphrase = "short" }`, "too short"},
		"low iterations":          {"key_provider \"pbkdf2\" \"k\" {\npassphrase = \"long enough passphrase!\"\niterations = 1000\n}", "dangerously low"},
		"bad hash":                {"key_provider \"pbkdf2\" \"k\" {\npassphrase = \"long enough passphrase!\"\nhash_function = \"sha1\"\n}", "sha256"},
		"kms":                     {`key_provider "aws_kms" "k" { kms_key_id = "x" }`, "not implement OpenTofu's aws_kms"},
		"unknown method":          {`method "rot13" "m" {}`, "no encryption method of type"},
		"undeclared method":       {`state { method = method.aes_gcm.nope }`, "no method"},
		"undeclared key provider": {`method "aes_gcm" "m" { keys = key_provider.pbkdf2.nope }`, "no key_provider"},
		"enforced unencrypted": {`method "unencrypted" "u" {}` + "\n" + `state {
  enforced = true
  method = method.unencrypted.u
}`, "forbidden"},
		"enforced fallback unencrypted": {basic + `method "unencrypted" "u" {}` + "\n" + `plan {
  enforced = true
  method = method.aes_gcm.m
  fallback { method = method.unencrypted.u }
}`, ""},
		"missing method":   {`state { enforced = true }`, "needs a method"},
		"chain loop":       {`key_provider "pbkdf2" "a" { chain = key_provider.pbkdf2.b }` + "\n" + `key_provider "pbkdf2" "b" { chain = key_provider.pbkdf2.a }`, "loop"},
		"unknown argument": {`key_provider "pbkdf2" "k" {` + "\n" + `passphrase = "long enough passphrase!"` + "\n" + `rounds = 3` + "\n" + `}`, "rounds"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, diags := DecodeEnv(tc.src)
			if !diags.HasErrors() {
				_, diags = New(cfg, nil)
			}
			if !diags.HasErrors() {
				t.Fatalf("no error")
			}
			var all []string
			for _, d := range diags {
				all = append(all, d.Summary+": "+d.Detail)
			}
			if tc.want != "" && !strings.Contains(strings.Join(all, "\n"), tc.want) {
				t.Fatalf("errors %q do not mention %q", all, tc.want)
			}
		})
	}
}

// TestEnvMerge: TF_ENCRYPTION completes and overrides the block, as in
// OpenTofu; enforced set in the code stays.
func TestEnvMerge(t *testing.T) {
	t.Parallel()
	code, diags := DecodeEnv(`state { enforced = true }`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	env, diags := DecodeEnv(`{
  "key_provider": {"pbkdf2": {"k": {"passphrase": "from the environment!", "iterations": 200000}}},
  "method": {"aes_gcm": {"m": {"keys": "key_provider.pbkdf2.k"}}},
  "state": {"method": "method.aes_gcm.m"}
}`)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	merged := Merge(code, env)
	if !merged.State.Enforced {
		t.Fatal("enforced lost in the merge")
	}
	e, diags := New(merged, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	stored, err := e.State().EncryptState([]byte(sampleState))
	if err != nil || !IsEncrypted(stored) {
		t.Fatalf("merged config does not encrypt: %v", err)
	}
	// An override of the passphrase alone replaces that argument only.
	over, _ := DecodeEnv(`key_provider "pbkdf2" "k" { passphrase = "another one, long enough" }`)
	m2 := Merge(merged, over)
	e2, diags := New(m2, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, _, err := e2.State().DecryptState(stored); err == nil {
		t.Fatal("the overridden passphrase was not used")
	}
}

func TestExternalKeyProvider(t *testing.T) {
	script, _ := filepath.Abs("testdata/keyprovider.sh")
	log := filepath.Join(t.TempDir(), "input.log")
	t.Setenv("KP_LOG", log)
	src := `
key_provider "external" "x" { command = ["` + script + `"] }
method "aes_gcm" "m" { keys = key_provider.external.x }
state { method = method.aes_gcm.m }
`
	e := mustSetup(t, src)
	stored, err := e.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Meta map[string][]byte `json:"meta"`
	}
	_ = json.Unmarshal(stored, &env)
	if got := string(env.Meta["key_provider.external.x"]); got != `{"external_data":{"label":"v1"}}` {
		t.Fatalf("stored metadata %s", got)
	}
	plain, _, err := mustSetup(t, src).State().DecryptState(stored)
	if err != nil || string(plain) != sampleState {
		t.Fatalf("decrypt: %v", err)
	}
	in, _ := os.ReadFile(log)
	if want := "null\n{\"external_data\":{\"label\":\"v1\"}}\n"; string(in) != want {
		t.Fatalf("the provider was given %q, want %q", in, want)
	}
	// The key is the one the program printed: AES-128 with 1..16.
	key, _ := base64.StdEncoding.DecodeString("AQIDBAUGBwgJCgsMDQ4PEA==")
	var data struct {
		Data []byte `json:"encrypted_data"`
	}
	_ = json.Unmarshal(stored, &data)
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	if _, err := gcm.Open(nil, data.Data[:12], data.Data[12:], nil); err != nil {
		t.Fatalf("not encrypted with the external key: %v", err)
	}

	// A program that does not speak the protocol.
	bad := mustSetup(t, `
key_provider "external" "x" { command = ["sh", "-c", "echo hello"] }
method "aes_gcm" "m" { keys = key_provider.external.x }
state { method = method.aes_gcm.m }
`)
	if _, err := bad.State().EncryptState([]byte(sampleState)); err == nil || !strings.Contains(err.Error(), "header") {
		t.Fatalf("bad provider: %v", err)
	}
}

// TestChain: pbkdf2 takes its passphrase from an external provider.
func TestChain(t *testing.T) {
	script, _ := filepath.Abs("testdata/keyprovider.sh")
	t.Setenv("KP_KEY", base64.StdEncoding.EncodeToString([]byte("a passphrase from the vault")))
	src := `
key_provider "external" "vault" { command = ["` + script + `"] }
key_provider "pbkdf2" "k" {
  chain      = key_provider.external.vault
  iterations = 200000
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }
`
	stored, err := mustSetup(t, src).State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	if got := MetaKeys(stored); len(got) != 2 {
		t.Fatalf("meta keys %v", got)
	}
	if _, _, err := mustSetup(t, src).State().DecryptState(stored); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KP_KEY", base64.StdEncoding.EncodeToString([]byte("another passphrase altogether")))
	if _, _, err := mustSetup(t, src).State().DecryptState(stored); err == nil {
		t.Fatal("decrypted with another chained passphrase")
	}
}

// countDerivations makes e count its PBKDF2 derivations in *n.
func countDerivations(e *Encryption, n *int) {
	derive := e.derive
	e.derive = func(pass []byte, m pbkdf2Meta) ([]byte, error) {
		*n++
		return derive(pass, m)
	}
}

// storedSalt is the pbkdf2 salt of key provider key_provider.pbkdf2.k in
// an encrypted payload.
func storedSalt(t *testing.T, data []byte) string {
	t.Helper()
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	var m pbkdf2Meta
	if err := json.Unmarshal(env.Meta["key_provider.pbkdf2.k"], &m); err != nil {
		t.Fatalf("no pbkdf2 metadata in %s: %v", data, err)
	}
	return hex.EncodeToString(m.Salt)
}

// TestKeyReuse: a process that read the state encrypts plans and run
// records with the key it derived to read it, when the key provider's
// configuration derives that key (same passphrase, iterations, hash, key
// and salt lengths), with a new nonce each time; the state itself is
// written with a key of a new salt. A payload that did not decrypt, or
// was written with other parameters, lends its key to nothing.
func TestKeyReuse(t *testing.T) {
	t.Parallel()
	const cfg = `
key_provider "pbkdf2" "k" {
  passphrase = var.passphrase
  iterations = ITER
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
state { method = method.aes_gcm.m }
plan { method = method.aes_gcm.m }
`
	withIter := func(n string) *Encryption { return mustSetup(t, strings.Replace(cfg, "ITER", n, 1)) }
	writer := withIter("200000")
	stored, err := writer.State().EncryptState([]byte(sampleState))
	if err != nil {
		t.Fatal(err)
	}
	corrupted := []byte(strings.Replace(string(stored), `"encrypted_data":"`, `"encrypted_data":"AAAA`, 1))

	tests := map[string]struct {
		iterations string
		read       []byte
		readErr    bool
		reused     bool // plans and run records reuse the state's key
	}{
		"same configuration":    {iterations: "200000", read: stored, reused: true},
		"other iterations":      {iterations: "250000", read: stored},
		"failed decryption":     {iterations: "200000", read: corrupted, readErr: true},
		"nothing read":          {iterations: "200000"},
		"same, read twice over": {iterations: "200000", read: stored, reused: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := withIter(tc.iterations)
			n := 0
			countDerivations(e, &n)
			if tc.read != nil {
				_, _, err := e.State().DecryptState(tc.read)
				if (err != nil) != tc.readErr {
					t.Fatalf("reading the state: %v", err)
				}
				if name == "same, read twice over" {
					if _, _, err := e.State().DecryptState(tc.read); err != nil {
						t.Fatal(err)
					}
				}
			}
			read := n
			records := e.State().Named("run records")
			var sealed [][]byte
			for _, enc := range []func([]byte) ([]byte, error){records.EncryptRecord, records.EncryptRecord, e.Plan().EncryptPlan} {
				out, err := enc([]byte(`{"secret":"top-secret-value"}`))
				if err != nil {
					t.Fatal(err)
				}
				sealed = append(sealed, out)
			}
			want := read + 1
			if tc.reused {
				want = read
			}
			if n != want {
				t.Errorf("%d derivations for the run records and the plan after %d to read, want %d", n-read, read, want-read)
			}
			salt := storedSalt(t, sealed[0])
			if reused := salt == storedSalt(t, stored); reused != tc.reused {
				t.Errorf("the run records' salt is the state's: %v, want %v", reused, tc.reused)
			}
			for _, s := range sealed[1:] {
				if storedSalt(t, s) != salt {
					t.Error("one process encrypted run records and plans with two keys")
				}
			}
			if bytes.Equal(sealed[0], sealed[1]) {
				t.Error("two encryptions of the same record are equal: the nonce was reused")
			}
			// The state itself gets a new salt.
			newState, err := e.State().EncryptState([]byte(sampleState))
			if err != nil {
				t.Fatal(err)
			}
			if storedSalt(t, newState) == storedSalt(t, stored) {
				t.Error("the state was written again with the salt it was read with")
			}
			// Another process reads everything back.
			reader := withIter("200000")
			for _, s := range sealed[:2] {
				if plain, err := reader.State().Named("run records").DecryptRecord(s); err != nil || string(plain) != `{"secret":"top-secret-value"}` {
					t.Errorf("reading a run record back: %q %v", plain, err)
				}
			}
			if _, _, err := reader.Plan().DecryptPlan(sealed[2]); err != nil {
				t.Errorf("reading the plan back: %v", err)
			}
			if _, _, err := reader.State().DecryptState(newState); err != nil {
				t.Errorf("reading the state back: %v", err)
			}
		})
	}
}
