// Package convert translates between the provider plugin protocol's
// messages (packages tfplugin5 and tfplugin6) and strata's own types:
// schemas to and from configschema, DynamicValue to and from cty values
// (msgpack with unknowns, or JSON), attribute paths to and from cty.Path,
// and protocol diagnostics to providers.Diagnostics.
//
// It is a leaf adapter of internal/providers/plugin: it imports only
// providers, configs/configschema and the generated protocol packages, and
// nothing in strata but the plugin client should import it.
package convert
