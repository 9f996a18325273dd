package rdns

import (
	"context"
	"net/netip"
	"sync"
)

// Resolve returns an answer for every address (IPv4-mapped addresses are
// unmapped; invalid ones are skipped; the result is keyed by the unmapped
// address):
//
//   - from the cache when it holds a usable one ([Answer.Usable]);
//   - otherwise, when live is true, from r (nil means a zero Resolver),
//     looking up at most r.Concurrency addresses at once, each query
//     bounded by r.Timeout and by ctx, and putting each new answer in the
//     cache. A cached failure (timeout, SERVFAIL, …) is asked again.
//   - when live is false, no query is ever made: an address with a cached
//     failure gets that failure, and an address not in the cache is absent
//     from the result.
//
// When ctx is done, lookups not yet finished are abandoned: their addresses
// are absent from the result and nothing is put in the cache for them.
// When r.Budget runs out first, every lookup not yet finished or begun is
// an answer with Err [ErrBudget] (a failure, asked again by a later run).
// progress, if not nil, is called after each live lookup with the number of
// lookups done and the number to do, from the goroutine that called
// Resolve. c may be nil (no cache). Resolve does not save the cache.
func Resolve(ctx context.Context, r *Resolver, c *Cache, addrs []netip.Addr, live bool, progress func(done, total int)) map[netip.Addr]Answer {
	out := make(map[netip.Addr]Answer, len(addrs))
	var todo []netip.Addr
	seen := make(map[netip.Addr]bool, len(addrs))
	for _, addr := range addrs {
		addr = addr.Unmap()
		if !addr.IsValid() || seen[addr] {
			continue
		}
		seen[addr] = true
		var cached Answer
		var ok bool
		if c != nil {
			cached, ok = c.Get(addr)
		}
		switch {
		case ok && (cached.Usable() || !live):
			out[addr] = cached
		case live:
			todo = append(todo, addr)
		}
	}
	if len(todo) == 0 {
		return out
	}
	if r == nil {
		r = &Resolver{}
	}

	// The budget ends the lookups as a cancellation does, but what it cut
	// short is reported: an answer that says so, where a cancellation
	// leaves the address out.
	bctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	jobs := make(chan netip.Addr)
	results := make(chan Answer)
	var wg sync.WaitGroup
	for range min(r.concurrency(), len(todo)) {
		wg.Go(func() {
			for addr := range jobs {
				results <- r.Lookup(bctx, addr)
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, addr := range todo {
			select {
			case jobs <- addr:
			case <-bctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	done := 0
	for a := range results {
		if a.Err == ErrCanceled {
			if expired(ctx) {
				continue
			}
			a.Err = ErrBudget
		}
		if c != nil {
			c.Put(a)
		}
		out[a.Addr] = a
		done++
		if progress != nil {
			progress(done, len(todo))
		}
	}
	if !expired(ctx) && expired(bctx) {
		now := r.now()
		for _, addr := range todo {
			if _, ok := out[addr]; !ok {
				a := Answer{Addr: addr, Err: ErrBudget, Time: now}
				if c != nil {
					c.Put(a)
				}
				out[addr] = a
			}
		}
	}
	return out
}
