"""Got Five! at the table: the screen, its widgets (racks, public row, board), the
"GOT FIVE!" dialog and the end-of-game summary."""
