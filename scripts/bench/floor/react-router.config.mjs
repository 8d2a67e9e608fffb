export default { ssr: true };
