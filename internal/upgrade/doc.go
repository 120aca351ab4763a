// Package upgrade owns upgrades of stored data: whole state files from older
// format versions to the current one (bytes in, bytes out), and each prior
// object through its provider's UpgradeResourceState.
//
// It imports addrs, providers and configschema; statefile and the engine
// import it.
package upgrade
