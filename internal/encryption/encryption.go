package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Evaluator evaluates an argument of the encryption block (what names
// it for messages). Arguments may refer to input variables and local
// values, which must be known when the configuration is loaded.
type Evaluator func(expr hcl.Expression, what string) (cty.Value, hcl.Diagnostics)

// version is the encryption_version OpenTofu writes and reads.
const version = "v0"

// Encryption is a validated encryption configuration: a Target for each
// kind of data. Keys are derived (and external key providers run) only
// when data is first encrypted or decrypted, once per process for
// encryption and once per stored metadata for decryption. The state is
// always encrypted with a key of a new salt, drawn once per process; plan
// files and run records reuse a key the process already has (see
// Target.reuse), so that a plan derives one key, not two.
type Encryption struct {
	state, plan, remoteDefault *Target
	remotes                    map[string]*Target

	providers map[*KeyProviderConfig]*keyProvider
	// salt returns n random bytes for a pbkdf2 salt (tests fix it).
	salt func(n int) ([]byte, error)
	// derive is PBKDF2 (tests count its calls).
	derive func(passphrase []byte, m pbkdf2Meta) ([]byte, error)

	mu      sync.Mutex
	sealers map[*method]*sealer
	openers map[string]cipher.AEAD
	// reads are keys derived to decrypt that the key provider's
	// configuration derives too: its passphrase, and a stored salt of
	// the configured length with the configured iterations, hash and key
	// length. Encrypting with one of them, its metadata stored with the
	// data, is what encrypting with a new salt would be, without another
	// derivation.
	reads map[*KeyProviderConfig]*sealer
}

// method is a decoded method block.
type method struct {
	cfg  *MethodConfig
	keys *KeyProviderConfig // aes_gcm
	aad  []byte
}

func (m *method) unencrypted() bool { return m.cfg.Type == "unencrypted" }

// sealer is what encrypting with a method needs, set up once: the cipher
// with the encryption key and the key providers' metadata to store.
type sealer struct {
	aead cipher.AEAD
	meta map[string][]byte
	err  error
}

// Target encrypts and decrypts one kind of data (the state, plans, one
// terraform_remote_state data source). Its methods are safe for
// concurrent use. A nil *Target is no encryption configured.
type Target struct {
	e    *Encryption
	name string
	// methods are the method to encrypt with, then its fallbacks in
	// order: all are tried for decryption.
	methods []*method
	// reuse lets t encrypt with a key the process has already derived,
	// for writing or for reading data its method encrypted (plans, run
	// records). The state's target does not: each command that writes
	// the state draws a new salt for it, so that a key is not used for
	// ever.
	reuse bool
}

// Status says how data was read.
type Status int

const (
	// StatusOK is data read with the method data is written with.
	StatusOK Status = iota
	// StatusMigrate is data read with a fallback method (or unencrypted
	// data accepted by an unencrypted fallback): it should be written
	// again, with the primary method.
	StatusMigrate
)

// New validates cfg (nil: no encryption) and returns its Encryption;
// eval evaluates the arguments of key providers and methods. The
// unencrypted method is a warning: it is meant for migrations only.
func New(cfg *Config, eval Evaluator) (*Encryption, hcl.Diagnostics) {
	if cfg == nil {
		return nil, nil
	}
	if eval == nil {
		eval = func(expr hcl.Expression, _ string) (cty.Value, hcl.Diagnostics) { return expr.Value(nil) }
	}
	e := &Encryption{salt: newSalt, derive: deriveKey, reads: map[*KeyProviderConfig]*sealer{}, providers: map[*KeyProviderConfig]*keyProvider{}, remotes: map[string]*Target{}, sealers: map[*method]*sealer{}, openers: map[string]cipher.AEAD{}}
	var diags hcl.Diagnostics
	for _, kc := range cfg.KeyProviders {
		kp, kdiags := decodeKeyProvider(kc, cfg.KeyProviders, eval)
		diags = append(diags, kdiags...)
		if kp != nil {
			e.providers[kc] = kp
		}
	}
	diags = append(diags, checkChains(cfg.KeyProviders, e.providers)...)
	methods := map[*MethodConfig]*method{}
	for _, mc := range cfg.Methods {
		m, mdiags := decodeMethod(mc, cfg.KeyProviders, eval)
		diags = append(diags, mdiags...)
		if m != nil {
			methods[mc] = m
			if m.unencrypted() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Unencrypted method configured",
					Detail:   "The unencrypted method is present in the encryption configuration. It is meant for migrations to or from encryption only: remove it once the migration is done.",
					Subject:  mc.DeclRange.Ptr(),
				})
			}
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	target := func(t *TargetConfig, name string, enforced bool) *Target {
		if t == nil {
			return nil
		}
		tgt := &Target{e: e, name: name}
		for c := t; c != nil; c = c.Fallback {
			if c.Method == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing encryption method",
					Detail:   fmt.Sprintf("The %s block needs a method argument: method = method.TYPE.NAME.", name),
					Subject:  c.DeclRange.Ptr(),
				})
				return nil
			}
			mc, mdiags := methodRef(c.Method, cfg.Methods)
			diags = append(diags, mdiags...)
			if mc == nil {
				return nil
			}
			m := methods[mc]
			if enforced && m.unencrypted() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unencrypted method is forbidden",
					Detail:   fmt.Sprintf("The %s block sets enforced, so it cannot use the unencrypted method.", name),
					Subject:  c.Method.Range().Ptr(),
				})
				return nil
			}
			tgt.methods = append(tgt.methods, m)
		}
		return tgt
	}
	if cfg.State != nil {
		e.state = target(cfg.State, "state", cfg.State.Enforced)
	}
	if cfg.Plan != nil {
		if e.plan = target(cfg.Plan, "plan", cfg.Plan.Enforced); e.plan != nil {
			e.plan.reuse = true
		}
	}
	if cfg.Remote != nil {
		e.remoteDefault = target(cfg.Remote.Default, "remote_state_data_sources.default", false)
		for name, t := range cfg.Remote.Targets {
			e.remotes[name] = target(t, "remote_state_data_source "+name, false)
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return e, diags
}

// checkChains reports chains of key providers that loop.
func checkChains(cfgs []*KeyProviderConfig, kps map[*KeyProviderConfig]*keyProvider) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, kc := range cfgs {
		seen := map[*KeyProviderConfig]bool{}
		path := []string{kc.Addr()}
		for c := kc; c != nil && kps[c] != nil; c = kps[c].chain {
			if seen[c] {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Circular reference between key providers",
					Detail:   fmt.Sprintf("The key providers chain in a loop: %s.", strings.Join(path, " -> ")),
					Subject:  kc.DeclRange.Ptr(),
				})
				break
			}
			seen[c] = true
			if n := kps[c].chain; n != nil {
				path = append(path, n.Addr())
			}
		}
	}
	return diags
}

func methodRef(expr hcl.Expression, cfgs []*MethodConfig) (*MethodConfig, hcl.Diagnostics) {
	typ, name, ok := blockRef(expr, "method")
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid encryption method identifier",
			Detail:   "Expected a reference to a method, of the form method.TYPE.NAME.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	for _, m := range cfgs {
		if m.Type == typ && m.Name == name {
			return m, nil
		}
	}
	return nil, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared encryption method",
		Detail:   fmt.Sprintf("There is no method %q %q block declared in the encryption block.", typ, name),
		Subject:  expr.Range().Ptr(),
	}}
}

func decodeMethod(mc *MethodConfig, kps []*KeyProviderConfig, eval Evaluator) (*method, hcl.Diagnostics) {
	m := &method{cfg: mc}
	var diags hcl.Diagnostics
	allowed := map[string]bool{}
	switch mc.Type {
	case "unencrypted":
	case "aes_gcm":
		allowed["keys"], allowed["aad"] = true, true
		a, ok := mc.Attrs["keys"]
		if !ok {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The aes_gcm method %s needs keys = key_provider.TYPE.NAME.", mc.Addr()),
				Subject:  mc.DeclRange.Ptr(),
			}}
		}
		m.keys, diags = keyProviderRef(a.Expr, kps)
		if a, ok := mc.Attrs["aad"]; ok {
			v, vdiags := eval(a.Expr, mc.Addr()+".aad")
			diags = append(diags, vdiags...)
			if !vdiags.HasErrors() {
				v, _ = v.UnmarkDeep()
				aad, err := bytesOf(v)
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for aad", Detail: "aad must be a list of byte values (numbers from 0 to 255).", Subject: a.Expr.Range().Ptr()})
				}
				m.aad = aad
			}
		}
	case "external":
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Encryption method not available",
			Detail:   "strata does not implement OpenTofu's external encryption method yet. Use aes_gcm, with an external key provider if the key comes from elsewhere.",
			Subject:  mc.DeclRange.Ptr(),
		}}
	default:
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unknown encryption method type",
			Detail:   fmt.Sprintf("There is no encryption method of type %q. strata has aes_gcm and unencrypted.", mc.Type),
			Subject:  mc.DeclRange.Ptr(),
		}}
	}
	for name, a := range mc.Attrs {
		if !allowed[name] {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected in a %s method.", name, mc.Type),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return m, diags
}

func bytesOf(v cty.Value) ([]byte, error) {
	lv, err := convert.Convert(v, cty.List(cty.Number))
	if err != nil || lv.IsNull() || !lv.IsWhollyKnown() {
		return nil, errors.New("not a list of numbers")
	}
	var out []byte
	for it := lv.ElementIterator(); it.Next(); {
		_, n := it.Element()
		i, acc := n.AsBigFloat().Int64()
		if acc != 0 || i < 0 || i > 255 {
			return nil, errors.New("not a byte")
		}
		out = append(out, byte(i))
	}
	return out, nil
}

// State is the target of state snapshots (and the journal); nil when the
// state is not encrypted.
func (e *Encryption) State() *Target {
	if e == nil {
		return nil
	}
	return e.state
}

// Plan is the target of plan files; nil when plans are not encrypted.
func (e *Encryption) Plan() *Target {
	if e == nil {
		return nil
	}
	return e.plan
}

// RemoteState is the target for the terraform_remote_state data source
// name (NAME, or MODULE.NAME for one in a module): its own
// remote_state_data_source block, or the default one.
func (e *Encryption) RemoteState(name string) *Target {
	if e == nil {
		return nil
	}
	if t, ok := e.remotes[name]; ok {
		return t
	}
	return e.remoteDefault
}

// Named returns t for another kind of data, named name in its messages
// ("run records"); it encrypts and decrypts as t does, but may encrypt
// with a key the process already has (see Target.reuse).
func (t *Target) Named(name string) *Target {
	if t == nil {
		return nil
	}
	c := *t
	c.name = name
	c.reuse = true
	return &c
}

// Encrypts reports whether data written through t is encrypted.
func (t *Target) Encrypts() bool { return t != nil && !t.methods[0].unencrypted() }

// provide returns kp's keys. With in nil it gives the encryption key and
// adds the metadata to store to out; otherwise the decryption key for the
// stored metadata in (nil when in has none for kp).
func (e *Encryption) provide(kc *KeyProviderConfig, in, out map[string][]byte) (keys, error) {
	kp := e.providers[kc]
	key := kc.metaKey()
	var upstream keys
	if kp.chain != nil {
		var err error
		if upstream, err = e.provide(kp.chain, in, out); err != nil {
			return keys{}, err
		}
	}
	switch kc.Type {
	case "pbkdf2":
		if in == nil {
			pass := []byte(kp.passphrase)
			if kp.chain != nil {
				pass = upstream.enc
				if len(pass) < pbkdf2MinPassphrase {
					return keys{}, fmt.Errorf("%s: the key chained from %s is too short for a passphrase (at least %d bytes)", kc.Addr(), kp.chain.Addr(), pbkdf2MinPassphrase)
				}
			}
			salt, err := e.salt(kp.saltLength)
			if err != nil {
				return keys{}, fmt.Errorf("%s: cannot read random data for the salt: %w", kc.Addr(), err)
			}
			m := pbkdf2Meta{Salt: salt, Iterations: kp.iterations, HashFunction: kp.hash, KeyLength: kp.keyLength}
			k, err := e.derive(pass, m)
			if err != nil {
				return keys{}, fmt.Errorf("%s: %w", kc.Addr(), err)
			}
			if err := putMeta(out, key, m); err != nil {
				return keys{}, err
			}
			return keys{enc: k}, nil
		}
		raw, ok := in[key]
		if !ok {
			return keys{}, nil
		}
		var m pbkdf2Meta
		if err := json.Unmarshal(raw, &m); err != nil {
			return keys{}, fmt.Errorf("%s: the stored metadata is not readable (did the encryption configuration change?): %w", kc.Addr(), err)
		}
		if len(m.Salt) == 0 || m.Iterations == 0 || m.HashFunction == "" || m.KeyLength == 0 {
			return keys{}, nil
		}
		pass := []byte(kp.passphrase)
		if kp.chain != nil {
			if pass = upstream.dec; pass == nil {
				return keys{}, nil
			}
		}
		k, err := e.derive(pass, m)
		if err != nil {
			return keys{}, fmt.Errorf("%s: %w", kc.Addr(), err)
		}
		return keys{dec: k}, nil
	case "external":
		input := []byte("null")
		if in != nil {
			if raw, ok := in[key]; ok {
				var m externalMeta
				if err := json.Unmarshal(raw, &m); err != nil {
					return keys{}, fmt.Errorf("%s: the stored metadata is not readable: %w", kc.Addr(), err)
				}
				if m.ExternalData != nil {
					input, _ = json.Marshal(m)
				}
			}
		}
		res, err := runExternal(kp.command, input)
		if err != nil {
			return keys{}, fmt.Errorf("%s: %w", kc.Addr(), err)
		}
		if in == nil {
			if err := putMeta(out, key, res.Meta); err != nil {
				return keys{}, err
			}
			return keys{enc: res.Keys.EncryptionKey}, nil
		}
		return keys{enc: res.Keys.EncryptionKey, dec: res.Keys.DecryptionKey}, nil
	}
	panic("encryption: unknown key provider type " + kc.Type)
}

func putMeta(out map[string][]byte, key string, meta any) error {
	if _, dup := out[key]; dup {
		return fmt.Errorf("the metadata key %s is used by two key providers of the same method; set encrypted_metadata_alias on one of them", key)
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	out[key] = b
	return nil
}

func newAEAD(key []byte, what string) (cipher.AEAD, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("%s: AES-GCM needs a key of 16, 24 or 32 bytes, and the key provider gave %d", what, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sealer returns m's encryption setup, made on first use. With reuse, a
// key derived to decrypt (see Encryption.reads) will do too.
func (e *Encryption) sealer(m *method, reuse bool) *sealer {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.sealers[m]; ok {
		return s
	}
	if s, ok := e.reads[m.keys]; ok && reuse {
		return s
	}
	s := &sealer{meta: map[string][]byte{}}
	k, err := e.provide(m.keys, nil, s.meta)
	if err == nil {
		s.aead, err = newAEAD(k.enc, m.cfg.Addr())
	}
	s.err = err
	e.sealers[m] = s
	return s
}

// opener returns the cipher that decrypts data m encrypted with the
// stored metadata meta, or nil when meta holds nothing for m's keys.
func (e *Encryption) opener(m *method, meta map[string][]byte) (cipher.AEAD, error) {
	ck, _ := json.Marshal(meta)
	cacheKey := m.cfg.Addr() + "\x00" + string(ck)
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.openers[cacheKey]; ok {
		return a, nil
	}
	k, err := e.provide(m.keys, meta, nil)
	if err != nil {
		return nil, err
	}
	if k.dec == nil {
		return nil, nil
	}
	a, err := newAEAD(k.dec, m.cfg.Addr())
	if err != nil {
		return nil, err
	}
	e.openers[cacheKey] = a
	return a, nil
}

// noteRead keeps the key a of m that decrypted data stored with meta (so
// authenticated: its salt is one this key provider drew, not one someone
// chose) for encrypting, when it is what m's configuration derives (see
// Encryption.reads).
func (e *Encryption) noteRead(m *method, meta map[string][]byte, a cipher.AEAD) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.reads[m.keys]; ok {
		return
	}
	if raw, ok := e.configuredMeta(m.keys, meta); ok {
		e.reads[m.keys] = &sealer{aead: a, meta: map[string][]byte{m.keys.metaKey(): raw}}
	}
}

// configuredMeta returns the metadata in meta of the pbkdf2 key provider
// kc, when kc takes its passphrase from its configuration (not from a
// chain, whose upstream key may change) and the metadata's parameters
// are those kc is configured with.
func (e *Encryption) configuredMeta(kc *KeyProviderConfig, meta map[string][]byte) ([]byte, bool) {
	kp := e.providers[kc]
	if kc.Type != "pbkdf2" || kp.chain != nil {
		return nil, false
	}
	raw, ok := meta[kc.metaKey()]
	if !ok {
		return nil, false
	}
	var m pbkdf2Meta
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	if len(m.Salt) != kp.saltLength || m.Iterations != kp.iterations || m.HashFunction != kp.hash || m.KeyLength != kp.keyLength {
		return nil, false
	}
	b, err := json.Marshal(m)
	return b, err == nil
}

// envelope is the stored form of encrypted data. serial and lineage are
// present for states only.
type envelope struct {
	Meta    map[string][]byte `json:"meta"`
	Data    []byte            `json:"encrypted_data"`
	Version string            `json:"encryption_version"`
}

type stateEnvelope struct {
	Serial  *int64 `json:"serial"`
	Lineage string `json:"lineage"`
	envelope
}

// seal encrypts plain with the primary method; nil, nil when that is
// unencrypted.
func (t *Target) seal(plain []byte) (*envelope, error) {
	m := t.methods[0]
	if m.unencrypted() {
		return nil, nil
	}
	s := t.e.sealer(m, t.reuse)
	if s.err != nil {
		return nil, fmt.Errorf("cannot encrypt the %s: %w", t.name, s.err)
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("cannot encrypt the %s: %w", t.name, err)
	}
	return &envelope{Meta: s.meta, Data: s.aead.Seal(nonce, nonce, plain, m.aad), Version: version}, nil
}

// open decrypts env with each method in turn.
func (t *Target) open(env *envelope) ([]byte, Status, error) {
	if env.Version != version {
		return nil, StatusOK, fmt.Errorf("the %s is encrypted with encryption_version %q, which strata cannot read (it reads %q)", t.name, env.Version, version)
	}
	var errs []string
	for i, m := range t.methods {
		if m.unencrypted() {
			continue
		}
		a, err := t.e.opener(m, env.Meta)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %s", m.cfg.Addr(), err))
			continue
		}
		if a == nil {
			errs = append(errs, fmt.Sprintf("%s: the data holds no key metadata for %s (it was encrypted with another key provider)", m.cfg.Addr(), m.keys.Addr()))
			continue
		}
		if len(env.Data) < a.NonceSize() {
			errs = append(errs, fmt.Sprintf("%s: the encrypted data is too short (corrupted)", m.cfg.Addr()))
			continue
		}
		plain, err := a.Open(nil, env.Data[:a.NonceSize()], env.Data[a.NonceSize():], m.aad)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: wrong key, or the data was altered (%s)", m.cfg.Addr(), err))
			continue
		}
		t.e.noteRead(m, env.Meta, a)
		if i == 0 {
			return plain, StatusOK, nil
		}
		return plain, StatusMigrate, nil
	}
	return nil, StatusOK, fmt.Errorf("cannot decrypt the %s with the configured methods:\n  %s", t.name, strings.Join(errs, "\n  "))
}

// plainAllowed says whether t reads unencrypted data, and with which
// status.
func (t *Target) plainAllowed() (Status, error) {
	for i, m := range t.methods {
		if m.unencrypted() {
			if i == 0 {
				return StatusOK, nil
			}
			return StatusMigrate, nil
		}
	}
	return StatusOK, fmt.Errorf("the %s is not encrypted, and the encryption configuration does not accept unencrypted data: to migrate to encryption, add fallback { method = method.unencrypted.NAME } to the %s block, with a method \"unencrypted\" \"NAME\" {} block, for one apply", t.name, t.name)
}

// EncryptedError is the error for encrypted data read without the
// encryption configured for it.
type EncryptedError struct{ What string }

func (e *EncryptedError) Error() string {
	return fmt.Sprintf("the %s is encrypted, and no encryption is configured for it: configure the encryption block (or TF_ENCRYPTION) with the key it was encrypted with", e.What)
}

// IsEncrypted reports whether data is an encrypted payload.
func IsEncrypted(data []byte) bool {
	if !strings.Contains(string(data[:min(len(data), 1<<16)]), `"encryption_version"`) && !strings.Contains(string(data[max(0, len(data)-1<<16):]), `"encryption_version"`) {
		return false
	}
	var probe struct {
		Version string `json:"encryption_version"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Version != ""
}

// EncryptState returns the stored form of the state snapshot plain (a
// state file's JSON): encrypted with the primary method, with the
// serial and lineage copied in clear as OpenTofu does. Without
// encryption, or with the unencrypted method, plain itself.
func (t *Target) EncryptState(plain []byte) ([]byte, error) {
	if !t.Encrypts() {
		return plain, nil
	}
	var pass struct {
		Serial  *int64 `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if err := json.Unmarshal(plain, &pass); err != nil {
		return nil, fmt.Errorf("cannot encrypt the state: %w", err)
	}
	env, err := t.seal(plain)
	if err != nil {
		return nil, err
	}
	return json.Marshal(stateEnvelope{Serial: pass.Serial, Lineage: pass.Lineage, envelope: *env})
}

// DecryptState returns the state file JSON that data, as stored, holds.
// Unencrypted data is accepted only where the configuration allows it
// (no encryption, or the unencrypted method), and encrypted data only
// when encryption is configured.
func (t *Target) DecryptState(data []byte) ([]byte, Status, error) {
	if t == nil {
		if IsEncrypted(data) {
			return nil, StatusOK, &EncryptedError{What: "state"}
		}
		return data, StatusOK, nil
	}
	var env stateEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		// Not JSON at all (a truncated file, say): reading it as a
		// state reports what is wrong with it.
		return data, StatusOK, nil
	}
	if env.Version == "" {
		st, aerr := t.plainAllowed()
		return data, st, aerr
	}
	plain, st, err := t.open(&env.envelope)
	if err != nil {
		return nil, st, err
	}
	var inner struct {
		Serial  *int64 `json:"serial"`
		Lineage string `json:"lineage"`
	}
	if err := json.Unmarshal(plain, &inner); err != nil {
		return nil, st, fmt.Errorf("the decrypted state is not valid JSON: %w", err)
	}
	if env.Serial != nil && inner.Serial != nil && *env.Serial != *inner.Serial {
		return nil, st, fmt.Errorf("the encrypted state's serial (%d) does not match the serial inside it (%d): it was altered", *env.Serial, *inner.Serial)
	}
	if env.Lineage != "" && env.Lineage != inner.Lineage {
		return nil, st, fmt.Errorf("the encrypted state's lineage (%s) does not match the lineage inside it (%s): it was altered", env.Lineage, inner.Lineage)
	}
	return plain, st, nil
}

// EncryptPlan returns the stored form of a plan file: an envelope with no
// clear fields, or plain itself when plans are not encrypted.
func (t *Target) EncryptPlan(plain []byte) ([]byte, error) { return t.encryptBlob(plain) }

// DecryptPlan returns the plan file (a zip archive) data holds.
func (t *Target) DecryptPlan(data []byte) ([]byte, Status, error) {
	if t == nil {
		if len(data) >= 2 && string(data[:2]) == "PK" {
			return data, StatusOK, nil
		}
		if IsEncrypted(data) {
			return nil, StatusOK, &EncryptedError{What: "plan"}
		}
		return data, StatusOK, nil
	}
	if len(data) >= 2 && string(data[:2]) == "PK" {
		st, err := t.plainAllowed()
		return data, st, err
	}
	return t.decryptBlob(data)
}

// EncryptRecord returns the stored form of one journal record (a JSON
// object): an envelope on one line, or plain itself without encryption.
func (t *Target) EncryptRecord(plain []byte) ([]byte, error) { return t.encryptBlob(plain) }

// DecryptRecord returns the journal record data holds; unencrypted
// records are accepted only where unencrypted data is.
func (t *Target) DecryptRecord(data []byte) ([]byte, error) {
	if t == nil {
		if IsEncrypted(data) {
			return nil, &EncryptedError{What: "state journal"}
		}
		return data, nil
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil || env.Version == "" {
		_, err := t.plainAllowed()
		return data, err
	}
	plain, _, err := t.open(&env)
	return plain, err
}

func (t *Target) encryptBlob(plain []byte) ([]byte, error) {
	if !t.Encrypts() {
		return plain, nil
	}
	env, err := t.seal(plain)
	if err != nil {
		return nil, err
	}
	return json.Marshal(env)
}

func (t *Target) decryptBlob(data []byte) ([]byte, Status, error) {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil || env.Version == "" {
		return nil, StatusOK, fmt.Errorf("the %s is neither a plan file nor an encrypted one", t.name)
	}
	return t.open(&env)
}

// MetaKeys lists the key provider metadata keys of an encrypted payload,
// sorted (for messages and tests).
func MetaKeys(data []byte) []string {
	var env envelope
	if json.Unmarshal(data, &env) != nil {
		return nil
	}
	var out []string
	for k := range env.Meta {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// blockRef reads expr as a reference ROOT.TYPE.NAME to a labelled block
// of the encryption block, and returns its two labels.
func blockRef(expr hcl.Expression, root string) (typ, name string, ok bool) {
	trav, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() || len(trav) != 3 || trav.RootName() != root {
		return "", "", false
	}
	t, ok1 := trav[1].(hcl.TraverseAttr)
	n, ok2 := trav[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		return "", "", false
	}
	return t.Name, n.Name, true
}
