"""Lost Valley of the Dinosaurs (Waddingtons, 1985): the game engine."""
