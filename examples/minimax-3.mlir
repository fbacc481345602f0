// Minimax over an order-3 game tree (seed 000 §8.4.2), run by
// `sa-run examples/minimax-3.mlir -- TREE.tns` (examples/game_tree.py
// --order 3 writes one): the value of the game for the first player,
//   opt = max_i0 min_i1 max_i2 ... A(i0, ..., i2),
// one reduction per ply from the leaves up. Pruned positions hold the fill
// 0; min and max are idempotent, so each ply visits the stored moves only
// and folds in the fill once where a move was pruned.

sparse_array.func @max(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<-9223372036854775808 : i64>} {
  %r = arith.maxsi %x, %y : i64
  sparse_array.yield %r : i64
}
sparse_array.func @min(%x: i64, %y: i64) -> i64
    attributes {commutative, associative, idempotent,
                identity = #sparse_array.identity<9223372036854775807 : i64>} {
  %r = arith.minsi %x, %y : i64
  sparse_array.yield %r : i64
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %t3 = sparse_array.read input %c0 {file_format = "tns"} : !sparse_array.array<20x20x43xi64, #sparse_array.format<[compressed, compressed, compressed], fill = 0 : i64>>
  // Ply 2: the first player picks.
  %t2 = sparse_array.reduce @max %t3 dims [2] : !sparse_array.array<20x20x43xi64, #sparse_array.format<[compressed, compressed, compressed], fill = 0 : i64>> -> !sparse_array.array<20x20xi64, #sparse_array.format<[compressed, compressed], fill = 0 : i64>>
  // The value of each position before the last move.
  sparse_array.print %t2 : !sparse_array.array<20x20xi64, #sparse_array.format<[compressed, compressed], fill = 0 : i64>>
  // Ply 1: the second player picks.
  %t1 = sparse_array.reduce @min %t2 dims [1] : !sparse_array.array<20x20xi64, #sparse_array.format<[compressed, compressed], fill = 0 : i64>> -> !sparse_array.array<20xi64, #sparse_array.format<[compressed], fill = 0 : i64>>
  // The value of each opening move, then of the game.
  sparse_array.print %t1 : !sparse_array.array<20xi64, #sparse_array.format<[compressed], fill = 0 : i64>>
  sparse_array.dealloc %t2 : !sparse_array.array<20x20xi64, #sparse_array.format<[compressed, compressed], fill = 0 : i64>>
  // Ply 0: the first player picks.
  %t0 = sparse_array.reduce @max %t1 dims [0] : !sparse_array.array<20xi64, #sparse_array.format<[compressed], fill = 0 : i64>> -> !sparse_array.array<i64, #sparse_array.format<[], fill = 0 : i64>>
  sparse_array.dealloc %t1 : !sparse_array.array<20xi64, #sparse_array.format<[compressed], fill = 0 : i64>>
  sparse_array.print %t0 : !sparse_array.array<i64, #sparse_array.format<[], fill = 0 : i64>>
  sparse_array.dealloc %t0 : !sparse_array.array<i64, #sparse_array.format<[], fill = 0 : i64>>
  sparse_array.dealloc %t3 : !sparse_array.array<20x20x43xi64, #sparse_array.format<[compressed, compressed, compressed], fill = 0 : i64>>
  return
}
