// Package object upgrades one stored resource object through its
// provider's UpgradeResourceState: the raw JSON (or flat map) written with
// an older schema version becomes a value of the provider's current
// schema, checked against it.
//
// It imports providers and configschema; the engine imports it. It is
// apart from package upgrade, which upgrades whole state files and which
// statefile imports, so that reading a state file does not depend on the
// provider interface.
package object
