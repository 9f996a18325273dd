// Package auditflags holds the flags that `crawlaudit audit` and
// crawlaudit-beam share, once: their names, defaults and help, and how
// their values become an audit.Config. The audit command registers them on
// a pflag.FlagSet (cobra), the Beam command on a flag.FlagSet (Beam's own
// flags live there), so Register takes what both offer.
package auditflags
