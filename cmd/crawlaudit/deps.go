package main

// Blank imports that pin the project's decided dependencies in go.mod while
// the packages that use them are being written. Remove a line once a real
// import of that module exists.
import (
	_ "github.com/apache/arrow-go/v18/parquet/pqarrow"
	_ "github.com/duckdb/duckdb-go/v2"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/ua-parser/uap-go/uaparser"
)
