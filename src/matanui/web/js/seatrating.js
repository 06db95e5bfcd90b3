// A seat's rating in words, for the lobby's open games and the game page's seat names:
// " (1612)" or, while it is provisional (docs/ratings.md: too few rated games or opponents,
// or too unsure), " (1500?)": in brackets after the name, so that " · " keeps separating the
// players.
export function ratingText(seat) {
  if (!seat?.rating) return "";
  const { rating, provisional } = seat.rating;
  return ` (${Math.round(rating)}${provisional ? "?" : ""})`;
}
