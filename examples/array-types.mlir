// The sparse_array type system: one type per storage layout and fill value.
// `sa-opt examples/array-types.mlir` parses, verifies and prints it back in
// canonical form (formats named by layout, fills always explicit).

// A road network's distance matrix: missing edges are +inf, not 0.
#Distances = #sparse_array.format<[dense, compressed], fill = inf : f64>
// The same matrix stored by columns, with 32-bit positions and coordinates.
#DistancesByColumn = #sparse_array.format<[dense, compressed], order = [1, 0],
                                          pos_width = 32, crd_width = 32,
                                          fill = inf : f64>
// Coordinate list of a 3-D tensor whose absent entries are NaN ("no data").
#Readings = #sparse_array.format<[compressed(nonunique), singleton(nonunique),
                                  singleton], fill = nan : f32>
// A hypersparse Boolean adjacency matrix (doubly compressed).
#Adjacency = #sparse_array.format<[compressed, compressed]>
// Compressed sparse fiber: every level compressed.
#CSF = #sparse_array.format<[compressed, compressed, compressed], fill = 1 : i32>

func.func private @relax(!sparse_array.array<?x?xf64, #Distances>,
                         !sparse_array.array<?x?xf64, #DistancesByColumn>)
func.func private @sensor(!sparse_array.array<64x64x?xf32, #Readings>)
func.func private @bfs_step(!sparse_array.array<?x?xi1, #Adjacency>,
                            !sparse_array.array<?xi1>)
func.func private @counts(!sparse_array.array<8x8x8xi32, #CSF>)
