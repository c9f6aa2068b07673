// Keeps the browser's anonymous id in one class (data: {name, value, seconds}) as a cookie,
// so that a reload, or a move to another replica, comes back as the same student. The id is
// random, issued by the server; it names no one. Sent to the same site only.

export default function ({ data }) {
  document.cookie =
    `${data.name}=${encodeURIComponent(data.value)}; path=/; max-age=${data.seconds}; SameSite=Strict`;
}
