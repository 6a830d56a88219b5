"""What the tutor teaches with: exercises, the what-if explorer and the gallery of positions."""
