// Package encryption encrypts what strata stores — state snapshots, plan
// files and the records of the state journal — in OpenTofu's format, so
// that a working directory can move between OpenTofu and strata with its
// encrypted state.
//
// Config is the `terraform { encryption { ... } }` block (or the
// TF_ENCRYPTION environment variable, which overrides it): key providers
// (pbkdf2, external), methods (aes_gcm, unencrypted), and the state, plan
// and remote_state_data_sources targets that name a method and fallbacks
// to try when reading. New turns it into an Encryption, whose Targets
// encrypt on write and decrypt on read. A nil *Target is encryption turned
// off: it passes data through, and refuses encrypted input with a clear
// error.
//
// Stored form (OpenTofu's "v0"): a JSON object
//
//	{"serial":N,"lineage":"...","meta":{"key_provider.pbkdf2.k":"<base64 of the key provider's metadata JSON>"},
//	 "encrypted_data":"<base64 of nonce || AES-GCM ciphertext and tag>","encryption_version":"v0"}
//
// where serial and lineage are copied in clear from the state (plans and
// journal records have no such fields).
//
// It imports nothing of strata's: configs decodes the block with it, and
// statemgr and the commands call it.
package encryption
