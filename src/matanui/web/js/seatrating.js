// A seat's rating in words, for the lobby's open games and the game page's seat names:
// " (1612)" or, while it is provisional (RD over 110, as the leaderboard marks it), " (1500?)":
// in brackets after the name, so that " · " keeps separating the players.
const PROVISIONAL_RD = 110;

export function ratingText(seat) {
  if (!seat?.rating) return "";
  const { rating, rd } = seat.rating;
  return ` (${Math.round(rating)}${rd > PROVISIONAL_RD ? "?" : ""})`;
}
