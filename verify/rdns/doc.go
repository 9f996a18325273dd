// Package rdns is forward-confirmed reverse DNS, the check crawler operators
// document for their crawlers (Google's "Verifying Googlebot",
// Bing's "Verify Bingbot"): look up the PTR name of the
// client address, check that it lies under one of the operator's domains,
// resolve that name forward (A and AAAA) and check that it gives back the
// address.
//
// A [Resolver] asks one DNS server and turns every reply, or the lack of
// one, into an [Answer]; [Answer.Check] judges an answer against an
// operator's domains; a [Cache] keeps answers, with the time each was
// obtained, in a file of JSON lines so that a later audit can be repeated
// exactly without a single query; [Resolve] ties the three together with a
// bound on concurrency.
//
// A failure to get an answer (timeout, SERVFAIL, REFUSED, a network error)
// is never evidence against an address: [Answer.Check] calls it [Failed],
// never [Refuted].
//
// The package is a leaf: it imports nothing from the rest of crawlaudit.
package rdns
