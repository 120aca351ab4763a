// Package upgrade owns upgrades of whole state files from older format
// versions to the current one: bytes in, bytes out. Upgrading each prior
// object through its provider's UpgradeResourceState is the subpackage
// object's.
//
// It imports nothing of strata's; statefile imports it.
package upgrade
