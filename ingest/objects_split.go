package ingest

import (
	"context"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
)

// ObjectInput is one object of a URL LOG argument.
type ObjectInput struct {
	// URL names the object alone, query included: Run of it reads the
	// object under Name.
	URL string
	// Name is the object's name in the accounting and every message (its
	// URL without query).
	Name string
	// Size is its size in bytes, -1 when unknown (an https:// object).
	Size int64
}

// ObjectInputs lists the objects that the URL raw (a LOG argument: an
// s3://, gs://, azblob:// or https:// URL) names as Run lists them, in the
// order Run reads them, each with a URL that names it alone: Run of one or
// several of them reads those objects under the names Run of raw gives
// them, so that the objects of a prefix can be read by separate processes. The objects of a
// prefix or glob that Run would not read (not a log by its name, dated
// outside opts.From and opts.To) are returned as skipped. The error says
// why nothing could be listed (Run of raw counts it as an input error).
func ObjectInputs(ctx context.Context, raw string, opts Options) ([]ObjectInput, []SkippedFile, error) {
	store := &objstore.Store{HTTPClient: opts.HTTPClient}
	defer store.Close()
	objs, sk, err := store.Expand(ctx, raw, objstore.Period{From: opts.From, To: opts.To}, skipReason)
	if err != nil {
		return nil, nil, err
	}
	inputs := make([]ObjectInput, len(objs))
	for i := range objs {
		inputs[i] = ObjectInput{URL: objs[i].URL(), Name: objs[i].Name, Size: objs[i].Size}
	}
	var skipped []SkippedFile
	for _, s := range sk {
		skipped = append(skipped, SkippedFile{Name: s.Name, Reason: s.Reason})
	}
	return inputs, skipped, nil
}
