package audit

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// hostID returns the dict id of a judged host name, from the hosts met
// (there are few); false when no request was judged for it.
func (j *judge) hostID(name string) (int32, bool) {
	for i := range j.hosts {
		if j.hosts[i].name == name {
			return j.hosts[i].id, true
		}
	}
	return 0, false
}

// dropIngestState lets go of what the judge needed only while the logs were
// read, once its tables are in DuckDB: the row builder's buffers, the
// per-User-Agent states, the address caches and the dict (the queries
// afterwards join DuckDB's table dict), and gives the memory back to the
// system. DuckDB's queries then run beside a small Go heap: with millions
// of invented bot names the judge's state is the largest part of Go's
// (docs/performance.md has the figure). The judge judges nothing afterwards.
func (j *judge) dropIngestState() {
	if j.out != nil {
		j.out.Release()
		// release (deferred) releases this one.
		j.out = array.NewRecordBuilder(memory.DefaultAllocator, RequestsSchema)
	}
	j.uaIDs, j.uas = nil, nil
	j.ipIDs, j.fwdIDs = nil, nil
	j.sizes.resolve(j.dict)
	j.dict, j.dictIDs = nil, nil
	j.stream = nil
	j.arena = stringArena{}
	// The batch buffers wait in sync.Pools, which keep what one collection
	// frees until the next. An ordinary audit's heap is small: it is not
	// worth two forced collections and their pause (docs/performance.md).
	if heapLive() < forceFreeBytes {
		return
	}
	runtime.GC()
	debug.FreeOSMemory()
}

// forceFreeBytes is the live heap from which dropIngestState collects at
// once and returns the memory to the system.
const forceFreeBytes = 64 << 20

// heapLive returns the heap's live bytes as of the last collection.
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return forceFreeBytes // unknown: collect
	}
	return s[0].Value.Uint64()
}
